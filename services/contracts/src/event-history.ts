import { z } from 'zod';

/**
 * GET /internal/events on every service that keeps an event store: its history in commit order, a page at a
 * time, for reporting's backfill. `after` is the cursor (the last commit's seq of the previous page, 0 first).
 */
export const EventHistoryQuery = z.object({
  after: z.coerce
    .number({ error: 'after must be a number' })
    .int()
    .min(0, 'after must be 0 or more')
    .default(0),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int()
    .min(1, 'limit must be 1 to 5000')
    .max(5000, 'limit must be 1 to 5000')
    .default(1000),
});

export const HistoryEnvelope = z.object({
  id: z.string(),
  type: z.string(),
  stream: z.string(),
  version: z.number(),
  occurredAt: z.string(),
  actor: z.string().nullable(),
  data: z.unknown(),
  meta: z.record(z.string(), z.unknown()),
});

export const EventHistoryResponse = z.object({
  status: z.literal(true),
  /** The events of up to `limit` commits, in commit order. */
  events: z.array(HistoryEnvelope),
  /** The cursor for the next page (unchanged when nothing followed). */
  next: z.number().int(),
  /** True when this page reached the end of the history as it stood. */
  done: z.boolean(),
});
export type EventHistoryResponse = z.infer<typeof EventHistoryResponse>;
