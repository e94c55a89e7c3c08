import { z } from 'zod';

/** A check-in question's whole state (admin.md §3). */
export const CheckinQuestionSnapshot = z.object({
  questionId: z.string(),
  body: z.string(),
  scale: z.enum(['normal', 'reverse']),
  order: z.number().int(),
  tags: z.array(z.string()),
  /** true = active, false = paused. */
  status: z.boolean(),
  createdAt: z.string(),
});
export type CheckinQuestionSnapshot = z.infer<typeof CheckinQuestionSnapshot>;

/**
 * Events of the engagement service, on topic nudge.engagement.events. Content keeps its like and comment
 * counters and each user's like state from these; reporting keeps the event log and check-in figures.
 * The engagement service adds its other events to this object.
 */
export const EngagementEvents = {
  /** The like state of (user, post) after a like/add that changed it. */
  LikeSet: {
    type: 'engagement.LikeSet.v1',
    data: z.object({ userId: z.string(), templateId: z.string(), liked: z.boolean() }),
  },
  CommentAdded: {
    type: 'engagement.CommentAdded.v1',
    data: z.object({
      commentId: z.string(),
      templateId: z.string(),
      userId: z.string(),
      message: z.string(),
    }),
  },
  CommentEdited: {
    type: 'engagement.CommentEdited.v1',
    data: z.object({
      commentId: z.string(),
      templateId: z.string(),
      userId: z.string(),
      message: z.string(),
    }),
  },
  CommentDeleted: {
    type: 'engagement.CommentDeleted.v1',
    data: z.object({ commentId: z.string(), templateId: z.string(), userId: z.string(), by: z.string() }),
  },
  /** A web analytics event for reporting's event log (POST /api/eventlogs). */
  WebEvent: {
    type: 'engagement.WebEvent.v1',
    data: z.object({
      userId: z.string().nullable(),
      userEmail: z.string().nullable(),
      eventType: z.string(),
      eventValue: z.string(),
      metadata: z.record(z.string(), z.string()),
      receivedAt: z.string(),
    }),
  },
  /** A check-in question as it stands after an admin added it (stream `checkinq-<id>`). */
  CheckinQuestionAdded: { type: 'engagement.CheckinQuestionAdded.v1', data: CheckinQuestionSnapshot },
  /** The whole question after an admin edit (event-carried state, like content's templates). */
  CheckinQuestionUpdated: { type: 'engagement.CheckinQuestionUpdated.v1', data: CheckinQuestionSnapshot },
  /**
   * A check-in question was issued to a user (stream `checkin-<checkinId>`). `qlidHash` is the SHA-256 (hex) of the
   * link credential, never the credential itself. body and scale are the question's at the time it was sent.
   */
  CheckinQuestionSent: {
    type: 'engagement.CheckinQuestionSent.v1',
    data: z.object({
      checkinId: z.string(),
      userId: z.string(),
      questionId: z.string(),
      body: z.string(),
      scale: z.enum(['normal', 'reverse']),
      qlidHash: z.string(),
      sentAt: z.string(),
      expiresAt: z.string(),
    }),
  },
  /**
   * The user answered (once per check-in). answer is 1..5; score is its 0-100 wellbeing value under the question's
   * scale at send time: normal (a-1)/4*100, reverse (5-a)/4*100.
   */
  CheckinAnswered: {
    type: 'engagement.CheckinAnswered.v1',
    data: z.object({
      checkinId: z.string(),
      userId: z.string(),
      questionId: z.string(),
      scale: z.enum(['normal', 'reverse']),
      answer: z.number().int().min(1).max(5),
      score: z.number().min(0).max(100),
      sentAt: z.string(),
      answeredAt: z.string(),
    }),
  },
} as const;

export type EngagementEventName = keyof typeof EngagementEvents;
export type EngagementEventData<K extends EngagementEventName> = z.infer<
  (typeof EngagementEvents)[K]['data']
>;
