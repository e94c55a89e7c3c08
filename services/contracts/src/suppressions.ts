import { z } from 'zod';

/**
 * The suppression list: addresses no reminder goes to, each with why. Owned by engagement, the service that owns the
 * sending facts (stream `suppression-<channel>-<hash of the address>`, topic nudge.engagement.events).
 */
export const SuppressionChannel = z.enum(['email', 'whatsapp']);
export type SuppressionChannel = z.infer<typeof SuppressionChannel>;

/** Why an address is suppressed. `soft_bounces`: soft bounces repeated N times within M days (settings). */
export const SuppressionReason = z.enum([
  'hard_bounce',
  'complaint',
  'invalid',
  'soft_bounces',
  'unsubscribe',
]);
export type SuppressionReason = z.infer<typeof SuppressionReason>;

/** A delivery fact heard about an address: from the send itself (SMTP), a provider's webhook, or an opt-out. */
export const DeliveryFactKind = z.enum(['hard_bounce', 'soft_bounce', 'complaint', 'invalid', 'unsubscribe']);
export type DeliveryFactKind = z.infer<typeof DeliveryFactKind>;

const Address = z.string().trim().toLowerCase().min(3).max(320);

const FactData = {
  address: z.string(),
  channel: SuppressionChannel,
  /** Where it was heard: smtp (the send's own answer), ses, sendgrid, postmark, twilio, unsubscribe. */
  source: z.string(),
  /** The provider's words (the SMTP reply, the bounce's diagnostic), for the admin. */
  detail: z.string(),
  at: z.string(),
};

export const SuppressionEvents = {
  /** The address gets no more reminders on this channel until an admin lifts it. */
  AddressSuppressed: {
    type: 'engagement.AddressSuppressed.v1',
    data: z.object({ ...FactData, reason: SuppressionReason }),
  },
  /** A temporary failure: suppressed once repeated N times within M days. */
  SoftBounceRecorded: {
    type: 'engagement.SoftBounceRecorded.v1',
    data: z.object(FactData),
  },
  /** An admin lifted the suppression: the address is mailed again. */
  SuppressionLifted: {
    type: 'engagement.SuppressionLifted.v1',
    data: z.object({ address: z.string(), channel: SuppressionChannel, by: z.string(), at: z.string() }),
  },
} as const;

/** Internal: which addresses of a batch are suppressed. */
export const SuppressionCheckRequest = z.object({
  addresses: z
    .array(z.object({ channel: SuppressionChannel, address: Address }))
    .max(2000, 'at most 2000 a batch'),
});
export const SuppressionCheckResponse = z.object({
  status: z.literal(true),
  suppressed: z.array(z.object({ channel: SuppressionChannel, address: z.string() })),
});

/** Internal: delivery facts to record (each deduplicated by its id when it has one: a webhook's event id). */
export const DeliveryFactsRequest = z.object({
  facts: z
    .array(
      z.object({
        id: z.string().min(1).max(200).optional(),
        kind: DeliveryFactKind,
        channel: SuppressionChannel,
        address: Address,
        source: z.string().min(1).max(40),
        detail: z.string().max(1000).default(''),
      }),
    )
    .min(1, 'the batch is empty')
    .max(1000, 'at most 1000 a batch'),
});
export const DeliveryFactsResponse = z.object({
  status: z.literal(true),
  /** Facts recorded; the rest were repeats of a fact heard before. */
  recorded: z.number().int(),
  duplicates: z.number().int(),
});

/** A provider's webhook answered: its events recorded, repeats of events heard before, or an SNS subscription confirmed. */
export const DeliveryWebhookResponse = z.object({
  status: z.literal(true),
  recorded: z.number().int().optional(),
  duplicates: z.number().int().optional(),
  confirmed: z.literal(true).optional(),
});

/** One suppressed (or once suppressed) address, as the admin sees it. */
export const SuppressionView = z.object({
  address: z.string(),
  channel: SuppressionChannel,
  suppressed: z.boolean(),
  reason: SuppressionReason.nullable(),
  source: z.string().nullable(),
  detail: z.string().nullable(),
  since: z.string().nullable(),
  /** Soft bounces within the window that counts them. */
  softBounces: z.number().int(),
  /** The last lift: by whom and when. */
  lifted: z.object({ by: z.string(), at: z.string() }).nullable(),
});
export type SuppressionView = z.infer<typeof SuppressionView>;

export const SuppressionListQuery = z.object({
  address: Address.optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export const SuppressionListResponse = z.object({
  status: z.literal(true),
  suppressions: z.array(SuppressionView),
  total: z.number().int(),
});

export const SuppressionLiftRequest = z.object({ channel: SuppressionChannel, address: Address });
export const SuppressionLiftResponse = z.object({ status: z.literal(true), suppression: SuppressionView });
