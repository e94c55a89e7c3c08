import type { DocumentStore, EventEnvelope, Projection } from '@nudge/platform';
import { createQuestionsProjection } from './checkin-questions-projection';
import { createCheckinsProjection } from './checkins-projection';
import { createCommentsProjection } from './comments-projection';
import { createLikesProjection } from './likes-projection';
import { createRemindersProjection } from './reminders-projection';

/**
 * Engagement's read models of its own events, registered as one projection: the runner keeps a checkpoint per
 * projection and stream, and every web event or like is a stream of its own, so one projection means one
 * checkpoint write per commit instead of four. Each part ignores the event types it does not own.
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
    async ensureIndexes() {
      for (const part of parts) await part.ensureIndexes();
    },
    async apply(event: EventEnvelope) {
      for (const part of parts) await part.apply(event);
    },
    async reset() {
      for (const part of parts) await part.reset();
    },
  };
}
