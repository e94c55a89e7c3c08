import { CheckinQuestionSnapshot, EngagementEvents } from '@nudge/contracts';
import type { Collection, DocumentStore, EventEnvelope, Projection } from '@nudge/platform';

export interface QuestionDoc {
  _id: string;
  body: string;
  scale: 'normal' | 'reverse';
  order: number;
  tags: string[];
  status: boolean;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export const questionsCollection = (store: DocumentStore): Collection<QuestionDoc> =>
  store.collection<QuestionDoc>('checkin_questions');

const TYPES = new Set<string>([
  EngagementEvents.CheckinQuestionAdded.type,
  EngagementEvents.CheckinQuestionUpdated.type,
]);

export function createQuestionsProjection(
  store: DocumentStore,
): Projection & { ensureIndexes(): Promise<void> } {
  const questions = questionsCollection(store);
  return {
    name: 'engagement.checkin_questions',
    async ensureIndexes() {
      await questions.createIndex({ order: 1, createdAt: 1 });
    },
    async apply(event: EventEnvelope) {
      if (!TYPES.has(event.type)) return;
      const data = CheckinQuestionSnapshot.parse(event.data);
      const current = await questions.findOne({ _id: data.questionId });
      if (current && current.version >= event.version) return;
      await questions.replaceOne(
        { _id: data.questionId },
        {
          _id: data.questionId,
          body: data.body,
          scale: data.scale,
          order: data.order,
          tags: data.tags,
          status: data.status,
          createdAt: data.createdAt,
          updatedAt: event.occurredAt,
          version: event.version,
        },
        { upsert: true },
      );
    },
    reset: () => questions.drop(),
  };
}
