import { createHash } from 'node:crypto';
import {
  CHECKIN_ANSWERS,
  CHECKIN_LINK_ENDED,
  CHECKIN_LINK_EXPIRED,
  CHECKIN_LINK_INVALID,
  EngagementEvents,
} from '@nudge/contracts';
import {
  conflict,
  type DocumentStore,
  gone,
  handleCommand,
  newId,
  notFound,
  randomToken,
  type ServiceEventStore,
  unavailable,
} from '@nudge/platform';
import { pickQuestion } from '../domain/checkin-questions';
import { checkinDecider, checkinStream, isExpired, wellbeing } from '../domain/checkins';
import { questionsCollection } from '../events/checkin-questions-projection';
import { checkinsCollection } from '../events/checkins-projection';
import { type AuthSession, type AuthSessions, AuthUnavailableError } from '../infra/auth-client';
import { QUESTION_SORT, QUESTION_TEXTS } from './checkin-questions';

export const CHECKIN_TEXTS = {
  noQuestion: 'There is no active check-in question to send',
  paused: 'This check-in question is paused',
  signInDown: 'Sign-in is not available right now; your answer was recorded.',
  noAccount: 'We could not find your account.',
} as const;

const DAY_MS = 24 * 3600_000;

/** Only the hash of a link credential is stored: the database alone cannot answer for anyone. */
export const hashQlid = (qlid: string) => createHash('sha256').update(qlid).digest('hex');

export type AnswerResult = { alreadyAnswered: boolean; user: unknown; token: string };

export function createCheckins(deps: {
  store: DocumentStore;
  events: ServiceEventStore;
  auth: AuthSessions;
  clock: () => Date;
  publicUrl: string;
  linkTtlDays: number;
}) {
  const checkins = checkinsCollection(deps.store);
  const questions = questionsCollection(deps.store);
  const base = deps.publicUrl.replace(/\/$/, '');

  /** Each user's next question: the next active one by order not sent to them recently (absent: none active). */
  async function chooseQuestions(userIds: string[]) {
    const active = await questions.find({ status: true }, { sort: QUESTION_SORT });
    const chosen = new Map<string, (typeof active)[number]>();
    if (active.length === 0) return chosen;
    const sent = await checkins.find(
      userIds.length === 1 ? { userId: userIds[0] } : { userId: { $in: userIds } },
      { projection: { userId: 1, questionId: 1, sentAt: 1 } },
    );
    const lastSent = new Map<string, Map<string, string>>();
    for (const s of sent) {
      let mine = lastSent.get(s.userId);
      if (!mine) {
        mine = new Map();
        lastSent.set(s.userId, mine);
      }
      if ((mine.get(s.questionId) ?? '') < s.sentAt) mine.set(s.questionId, s.sentAt);
    }
    for (const id of userIds) {
      const question = pickQuestion(active, lastSent.get(id) ?? new Map());
      if (question) chosen.set(id, question);
    }
    return chosen;
  }

  type Question = NonNullable<Awaited<ReturnType<typeof questions.findOne>>>;
  /**
   * Issues each user their question: a fresh unguessable link credential (qlid) and one answer link per answer, the
   * CheckinQuestionSent events appended in one write.
   */
  async function issueEach(chosen: [string, Question][]) {
    const now = deps.clock();
    const expiresAt = new Date(now.getTime() + deps.linkTtlDays * DAY_MS).toISOString();
    const issued = chosen.map(([userId, question]) => ({
      userId,
      question,
      qlid: randomToken(24),
      checkinId: newId(now),
    }));
    const results = await deps.events.appendMany(
      issued.map(({ userId, question, qlid, checkinId }) => ({
        stream: checkinStream(checkinId),
        expectedVersion: 0,
        events: [
          {
            type: EngagementEvents.CheckinQuestionSent.type,
            data: {
              checkinId,
              userId,
              questionId: question._id,
              body: question.body,
              scale: question.scale,
              qlidHash: hashQlid(qlid),
              sentAt: now.toISOString(),
              expiresAt,
            },
          },
        ],
      })),
      { actor: 'system' },
    );
    for (const result of results) if (!result.ok) throw result.error;
    return issued.map(({ userId, question, qlid }) => {
      const q = encodeURIComponent(qlid);
      return {
        userId,
        qlid,
        expiresAt,
        question: { _id: question._id, body: question.body, scale: question.scale },
        links: CHECKIN_ANSWERS.map((answer) => ({ answer, url: `${base}/checkin?qlid=${q}&a=${answer}` })),
      };
    });
  }

  /** Issues a question (the one named, or the user's next) to a user. */
  async function issue(userId: string, questionId?: string) {
    let question: Question | undefined;
    if (questionId) {
      const found = await questions.findOne({ _id: questionId });
      if (!found) throw notFound(QUESTION_TEXTS.notFound);
      if (!found.status) throw conflict(CHECKIN_TEXTS.paused);
      question = found;
    } else {
      question = (await chooseQuestions([userId])).get(userId);
      if (!question) throw notFound(CHECKIN_TEXTS.noQuestion);
    }
    const [issued] = await issueEach([[userId, question]]);
    const { userId: _, ...rest } = issued as NonNullable<typeof issued>;
    return rest;
  }

  /**
   * Signs the user in through auth (the only signer of tokens), then records the answer once. A link sent before the
   * reader's sessions were ended (a sign-out, an admin) records nothing and signs no one in; when auth does not
   * answer, the answer is still recorded and the reader told that sign-in is down.
   */
  async function answer(qlid: string, value: number): Promise<AnswerResult> {
    const found = await checkins.findOne({ qlidHash: hashQlid(qlid) });
    if (!found) throw notFound(CHECKIN_LINK_INVALID);
    if (isExpired(found, deps.clock())) throw gone(CHECKIN_LINK_EXPIRED);
    let session: AuthSession | null | 'ended' | undefined;
    try {
      session = await deps.auth.sessionFor(found.userId, found.sentAt);
    } catch (err) {
      if (!(err instanceof AuthUnavailableError)) throw err;
    }
    if (session === 'ended') throw gone(CHECKIN_LINK_ENDED);
    if (session === null) throw notFound(CHECKIN_TEXTS.noAccount);
    // Two clicks at once: the one recorded second decides again and finds the question answered.
    const recorded = await handleCommand(
      deps.events,
      checkinStream(found._id),
      checkinDecider,
      { answer: value, now: deps.clock() },
      { actor: found.userId },
    );
    if (!session) throw unavailable(CHECKIN_TEXTS.signInDown);
    return { alreadyAnswered: recorded.events.length === 0, user: session.user, token: session.token };
  }

  async function progress(userId: string) {
    const answered = await checkins.find({ userId, answer: { $ne: null } });
    const answers = answered.flatMap((c) =>
      c.answer === null ? [] : [{ answer: c.answer, scale: c.scale }],
    );
    return { ...wellbeing(answers), answers: answers.length };
  }

  /**
   * One question for each user (the next active one by order not sent to them recently); none = absent. The batch
   * costs three store round trips whatever its size: the questions, the users' past check-ins, one append.
   */
  async function issueBatch(userIds: string[]) {
    const out: Record<string, Pick<Awaited<ReturnType<typeof issue>>, 'question' | 'links'>> = {};
    if (userIds.length === 0) return out;
    for (const issued of await issueEach([...(await chooseQuestions(userIds))]))
      out[issued.userId] = { question: issued.question, links: issued.links };
    return out;
  }

  return { issue, issueBatch, answer, progress };
}

export type Checkins = ReturnType<typeof createCheckins>;
