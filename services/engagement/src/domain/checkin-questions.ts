import { CheckinQuestionSnapshot, type CheckinScale, EngagementEvents } from '@nudge/contracts';
import { type DecidedEvent, notFound, type SnapshotCommand, snapshotDecider } from '@nudge/platform';

export const questionStream = (questionId: string) => `checkinq-${questionId}`;

export interface QuestionFields {
  body: string;
  scale: CheckinScale;
  order: number;
  tags: string[];
  status: boolean;
}

export const QUESTION_NOT_FOUND = 'Question not found';

export type QuestionCommand = SnapshotCommand<
  { questionId: string; fields: QuestionFields; createdAt: string },
  { changes: Partial<QuestionFields> }
>;

/** A question's state is the snapshot its last event carries. */
export const questionDecider = snapshotDecider({
  evolve: (state: CheckinQuestionSnapshot | null, event) =>
    event.type === EngagementEvents.CheckinQuestionAdded.type ||
    event.type === EngagementEvents.CheckinQuestionUpdated.type
      ? CheckinQuestionSnapshot.parse(event.data)
      : state,
  add: (cmd: { questionId: string; fields: QuestionFields; createdAt: string }) =>
    decideAddQuestion(cmd.questionId, cmd.fields, cmd.createdAt),
  update: (state, cmd: { changes: Partial<QuestionFields> }) => decideUpdateQuestion(state, cmd.changes),
  notFound: () => notFound(QUESTION_NOT_FOUND),
});

const decideAddQuestion = (questionId: string, fields: QuestionFields, createdAt: string): DecidedEvent[] => [
  {
    type: EngagementEvents.CheckinQuestionAdded.type,
    data: { questionId, ...fields, createdAt } satisfies CheckinQuestionSnapshot,
  },
];

/** The whole question after the change; nothing when no field changes. */
function decideUpdateQuestion(
  current: CheckinQuestionSnapshot,
  changes: Partial<QuestionFields>,
): DecidedEvent[] {
  const next: CheckinQuestionSnapshot = {
    questionId: current.questionId,
    body: changes.body ?? current.body,
    scale: changes.scale ?? current.scale,
    order: changes.order ?? current.order,
    tags: changes.tags ?? current.tags,
    status: changes.status ?? current.status,
    createdAt: current.createdAt,
  };
  if (JSON.stringify(next) === JSON.stringify(current)) return [];
  return [{ type: EngagementEvents.CheckinQuestionUpdated.type, data: next }];
}

/**
 * Which question to send a user when the caller names none: the active questions in admin order (order, then
 * oldest first); the first this user was never sent, else the one sent to them longest ago (so questions rotate).
 */
export function pickQuestion<Q extends { _id: string; status: boolean }>(
  questionsInOrder: readonly Q[],
  lastSentToUser: ReadonlyMap<string, string>,
): Q | undefined {
  const active = questionsInOrder.filter((q) => q.status);
  const unsent = active.find((q) => !lastSentToUser.has(q._id));
  if (unsent) return unsent;
  let best: Q | undefined;
  for (const q of active) {
    if (!best || (lastSentToUser.get(q._id) ?? '') < (lastSentToUser.get(best._id) ?? '')) best = q;
  }
  return best;
}
