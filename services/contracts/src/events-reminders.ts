import { z } from 'zod';

/** The channels a reminder goes out on. */
export const ReminderChannel = z.enum(['email', 'whatsapp']);
export type ReminderChannel = z.infer<typeof ReminderChannel>;

/** The signed links of a reminder whose clicks are recorded (the link kind of `ReminderClicked`). */
export const ReminderLinkKind = z.enum([
  'continue_reading',
  'like',
  'checkin',
  'recommendation',
  'upgrade',
  'unsubscribe',
]);
export type ReminderLinkKind = z.infer<typeof ReminderLinkKind>;

/** What every reminder fact carries, so reporting can count per post, per subject line and per user. */
const SendFacts = {
  /** The send key: sha-256 (hex, 32 chars) of `<userId>|<localDate>|<channel>`; also the stream `reminder-<sendId>`. */
  sendId: z.string(),
  userId: z.string(),
  channel: ReminderChannel,
  /** The reader's calendar day the reminder belongs to (YYYY-MM-DD in their time zone). */
  localDate: z.string(),
  templateId: z.string(),
  /** The subject line sent (null on WhatsApp or when the post has no Active subject). */
  subjectId: z.string().nullable(),
};

/**
 * Facts of the daily reminders, owned by the engagement service (stream `reminder-<sendId>`, topic
 * nudge.engagement.events). A send key can hold one `ReminderSent`, at most one `ReminderOpened` and any number of
 * `ReminderClicked`. Auth derives the cold / autoactive notification status from them; reporting counts e-mails
 * sent and opened per post, subject line and user.
 */
export const ReminderEvents = {
  ReminderSent: {
    type: 'engagement.ReminderSent.v1',
    data: z.object({
      ...SendFacts,
      subject: z.string().nullable(),
      /** The reader's chosen slot (HH:MM) and zone at send time. */
      slot: z.string(),
      timeZone: z.string(),
      /** The check-in question issued in this e-mail, if any. */
      checkinQuestionId: z.string().nullable(),
      /** Whether the post went out locked (a plain reader and a premium post). */
      locked: z.boolean(),
      sentAt: z.string(),
    }),
  },
  /** The tracking image of an e-mail loaded: recorded once per send. */
  ReminderOpened: {
    type: 'engagement.ReminderOpened.v1',
    data: z.object({ ...SendFacts, openedAt: z.string() }),
  },
  /** A signed link of a reminder was followed. */
  ReminderClicked: {
    type: 'engagement.ReminderClicked.v1',
    data: z.object({ ...SendFacts, link: ReminderLinkKind, clickedAt: z.string() }),
  },
} as const;

export type ReminderEventName = keyof typeof ReminderEvents;
export type ReminderEventData<K extends ReminderEventName> = z.infer<(typeof ReminderEvents)[K]['data']>;
