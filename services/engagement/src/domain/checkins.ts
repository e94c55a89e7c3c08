import { type CheckinScale, EngagementEvents } from '@nudge/contracts';
import type { DecidedEvent } from './likes';

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

export interface CheckinState {
  _id: string;
  userId: string;
  questionId: string;
  scale: CheckinScale;
  sentAt: string;
  expiresAt: string;
  answer: number | null;
  version: number;
}

export type AnswerDecision =
  | { kind: 'expired' }
  | { kind: 'alreadyAnswered' }
  | { kind: 'record'; events: DecidedEvent[] };

/** An expired link records nothing (and signs no one in); a second answer records nothing either. */
export function decideAnswer(state: CheckinState, answer: number, now: Date): AnswerDecision {
  if (now.getTime() >= new Date(state.expiresAt).getTime()) return { kind: 'expired' };
  if (state.answer !== null) return { kind: 'alreadyAnswered' };
  return {
    kind: 'record',
    events: [
      {
        type: EngagementEvents.CheckinAnswered.type,
        data: {
          checkinId: state._id,
          userId: state.userId,
          questionId: state.questionId,
          scale: state.scale,
          answer,
          score: scoreOf(answer, state.scale),
          sentAt: state.sentAt,
          answeredAt: now.toISOString(),
        },
      },
    ],
  };
}
