import type { DocumentStore, EventEnvelope, Projection } from '@nudge/platform';
import { createQuestionsProjection } from './checkin-questions-projection';
import { createCheckinsProjection } from './checkins-projection';
import { createCommentsProjection } from './comments-projection';
import { createLikesProjection } from './likes-projection';
import { createRemindersProjection } from './reminders-projection';

/**
 * The collections these read models keep: everything a rebuild from engagement's own event store gives again (the
 * rest are copies kept from other services' events). The rebuild test and the crash suite compare them.
 */
export const ENGAGEMENT_READ_MODEL_COLLECTIONS = [
  'likes',
  'comments',
  'checkin_questions',
  'checkins',
  'reminder_sends',
  'post_counts',
] as const;

/**
 * Engagement's read models of its own events, registered as one projection (one checkpoint to move instead of five).
 * Each part ignores the event types it does not own. Every part writes only the documents of the event's own stream
 * (a like, a comment, a check-in, a question, a reminder send: each its own stream and document, keyed by its id),
 * plus the post's counts (post-counts.ts), which it only moves with `$inc` (commutative: no read of them before the
 * write). So the projection declares `concurrency: 'stream'`: commits of different streams are applied at once, each
 * stream's in order.
 */
export function createReadModels(store: DocumentStore): Projection & { ensureIndexes(): Promise<void> } {
  const parts = [
    createLikesProjection(store),
    createCommentsProjection(store),
    createQuestionsProjection(store),
    createCheckinsProjection(store),
    createRemindersProjection(store),
  ];
  return {
    name: 'engagement.read-models',
    concurrency: 'stream',
    async ensureIndexes() {
      for (const part of parts) await part.ensureIndexes();
    },
    async apply(event: EventEnvelope) {
      for (const part of parts) await part.apply(event);
    },
    /** New streams' events together: the reminder sends of a batch in one insert (the other parts one by one). */
    async applyMany(events: EventEnvelope[]) {
      for (const part of parts) {
        if (part.applyMany) await part.applyMany(events);
        else for (const event of events) await part.apply(event);
      }
    },
    async reset() {
      for (const part of parts) await part.reset();
    },
  };
}
