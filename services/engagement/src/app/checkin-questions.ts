import type { CheckinQuestion } from '@nudge/contracts';
import { type DocumentStore, handleCommand, newId, notFound, type ServiceEventStore } from '@nudge/platform';
import {
  QUESTION_NOT_FOUND,
  type QuestionCommand,
  type QuestionFields,
  questionDecider,
  questionStream,
} from '../domain/checkin-questions';
import { type QuestionDoc, questionsCollection } from '../events/checkin-questions-projection';

export const QUESTION_TEXTS = {
  added: 'Check-In Question Added Successfully',
  updated: 'Question updated successfully',
  notFound: QUESTION_NOT_FOUND,
} as const;

/** Admin order: by `order`, then oldest first. */
export const QUESTION_SORT = { order: 1, createdAt: 1, _id: 1 } as const;

export const questionView = (doc: QuestionDoc): CheckinQuestion => ({
  _id: doc._id,
  body: doc.body,
  scale: doc.scale,
  order: doc.order,
  tags: doc.tags,
  status: doc.status,
  createdAt: doc.createdAt,
  updatedAt: doc.updatedAt,
});

export function createCheckinQuestions(deps: {
  store: DocumentStore;
  events: ServiceEventStore;
  clock: () => Date;
}) {
  const questions = questionsCollection(deps.store);

  const load = async (id: string) => {
    const doc = await questions.findOne({ _id: id });
    if (!doc) throw notFound(QUESTION_TEXTS.notFound);
    return doc;
  };

  const command = (id: string, cmd: QuestionCommand, actor: string) =>
    handleCommand(deps.events, questionStream(id), questionDecider, cmd, { actor });

  return {
    load,
    async add(fields: QuestionFields, actor: string) {
      const now = deps.clock();
      const questionId = newId(now);
      await command(questionId, { kind: 'add', questionId, fields, createdAt: now.toISOString() }, actor);
      return questionView(await load(questionId));
    },
    async details(id: string) {
      return questionView(await load(id));
    },
    async update(id: string, changes: Partial<QuestionFields>, actor: string) {
      await command(id, { kind: 'update', changes }, actor);
      return questionView(await load(id));
    },
    async page(page: number, limit: number) {
      const [docs, total] = await Promise.all([
        questions.find({}, { sort: QUESTION_SORT, skip: (page - 1) * limit, limit }),
        questions.countDocuments({}),
      ]);
      return { total, data: docs.map(questionView) };
    },
    async all() {
      return (await questions.find({}, { sort: QUESTION_SORT })).map(questionView);
    },
  };
}

export type CheckinQuestions = ReturnType<typeof createCheckinQuestions>;
