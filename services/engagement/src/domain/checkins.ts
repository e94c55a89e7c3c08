import { CHECKIN_LINK_EXPIRED, type CheckinScale, EngagementEvents, eventData } from '@nudge/contracts';
import { type Decider, gone } from '@nudge/platform';

export const checkinStream = (checkinId: string) => `checkin-${checkinId}`;

export const NO_ANSWERS_MESSAGE = 'Answer a check-in question to see your wellbeing score.';

/**
 * The wellbeing value of one answer, 0-100. Answers run 1..5; on a normal-scale question a higher answer is
 * better ((a-1)/4*100), on a reverse-scale question a lower one is ((5-a)/4*100).
 */
export function scoreOf(answer: number, scale: CheckinScale): number {
  return scale === 'reverse' ? ((5 - answer) / 4) * 100 : ((answer - 1) / 4) * 100;
}

/** The wellbeing score: the mean of the answers' scores, rounded to a whole number (0 without answers). */
export function wellbeing(answers: readonly { answer: number; scale: CheckinScale }[]): {
  average: number;
  message: string;
} {
  if (answers.length === 0) return { average: 0, message: NO_ANSWERS_MESSAGE };
  const sum = answers.reduce((total, a) => total + scoreOf(a.answer, a.scale), 0);
  const average = Math.min(100, Math.max(0, Math.round(sum / answers.length)));
  const n = answers.length;
  return { average, message: `Your wellbeing score from ${n} check-in answer${n === 1 ? '' : 's'}.` };
}

/** A check-in as its stream folds: the question sent, then at most one answer. Null: never sent. */
export type CheckinState = {
  checkinId: string;
  userId: string;
  questionId: string;
  scale: CheckinScale;
  sentAt: string;
  expiresAt: string;
  answer: number | null;
} | null;

export interface AnswerCheckin {
  answer: number;
  now: Date;
}

/** An expired link records nothing (and signs no one in: gone); a second answer records nothing either. */
export const checkinDecider: Decider<CheckinState, AnswerCheckin> = {
  initialState: null,
  evolve(state, event) {
    if (event.type === EngagementEvents.CheckinQuestionSent.type) {
      const { checkinId, userId, questionId, scale, sentAt, expiresAt } = eventData(
        EngagementEvents.CheckinQuestionSent,
        event,
      );
      return { checkinId, userId, questionId, scale, sentAt, expiresAt, answer: null };
    }
    if (event.type === EngagementEvents.CheckinAnswered.type && state)
      return { ...state, answer: eventData(EngagementEvents.CheckinAnswered, event).answer };
    return state;
  },
  decide(cmd, state) {
    if (!state || isExpired(state, cmd.now)) throw gone(CHECKIN_LINK_EXPIRED);
    if (state.answer !== null) return [];
    return [
      {
        type: EngagementEvents.CheckinAnswered.type,
        data: {
          checkinId: state.checkinId,
          userId: state.userId,
          questionId: state.questionId,
          scale: state.scale,
          answer: cmd.answer,
          score: scoreOf(cmd.answer, state.scale),
          sentAt: state.sentAt,
          answeredAt: cmd.now.toISOString(),
        },
      },
    ];
  },
};

/** A check-in link works until its expiry. */
export const isExpired = (state: { expiresAt: string }, now: Date) =>
  now.getTime() >= new Date(state.expiresAt).getTime();
