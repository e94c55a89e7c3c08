import { EngagementEvents, eventData } from '@nudge/contracts';
import type { Collection, DocumentStore, EventEnvelope, Projection } from '@nudge/platform';

/** A check-in issued to a user: found by the SHA-256 of its link credential, answered at most once. */
export interface CheckinDoc {
  _id: string;
  qlidHash: string;
  userId: string;
  questionId: string;
  body: string;
  scale: 'normal' | 'reverse';
  sentAt: string;
  expiresAt: string;
  answer: number | null;
  score: number | null;
  answeredAt: string | null;
  version: number;
}

export const checkinsCollection = (store: DocumentStore): Collection<CheckinDoc> =>
  store.collection<CheckinDoc>('checkins');

export function createCheckinsProjection(
  store: DocumentStore,
): Projection & { ensureIndexes(): Promise<void> } {
  const checkins = checkinsCollection(store);
  return {
    name: 'engagement.checkins',
    async ensureIndexes() {
      await checkins.createIndex({ qlidHash: 1 }, { unique: true });
      await checkins.createIndex({ userId: 1 });
    },
    async apply(event: EventEnvelope) {
      if (event.type === EngagementEvents.CheckinQuestionSent.type) {
        const data = eventData(EngagementEvents.CheckinQuestionSent, event);
        const current = await checkins.findOne({ _id: data.checkinId });
        if (current && current.version >= event.version) return;
        await checkins.replaceOne(
          { _id: data.checkinId },
          {
            _id: data.checkinId,
            qlidHash: data.qlidHash,
            userId: data.userId,
            questionId: data.questionId,
            body: data.body,
            scale: data.scale,
            sentAt: data.sentAt,
            expiresAt: data.expiresAt,
            answer: null,
            score: null,
            answeredAt: null,
            version: event.version,
          },
          { upsert: true },
        );
      } else if (event.type === EngagementEvents.CheckinAnswered.type) {
        const data = eventData(EngagementEvents.CheckinAnswered, event);
        await checkins.updateOne(
          { _id: data.checkinId, version: { $lt: event.version } },
          {
            $set: {
              answer: data.answer,
              score: data.score,
              answeredAt: data.answeredAt,
              version: event.version,
            },
          },
        );
      }
    },
    reset: () => checkins.drop(),
  };
}
