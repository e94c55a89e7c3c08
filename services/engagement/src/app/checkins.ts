import { createHash } from 'node:crypto';
import {
  CHECKIN_ANSWERS,
  CHECKIN_LINK_ENDED,
  CHECKIN_LINK_EXPIRED,
  CHECKIN_LINK_INVALID,
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
import { type CheckinCommand, checkinDecider, checkinStream, isExpired, wellbeing } from '../domain/checkins';
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

  const command = (checkinId: string, cmd: CheckinCommand, actor: string) =>
    handleCommand(deps.events, checkinStream(checkinId), checkinDecider, cmd, { actor });

  async function chooseQuestion(userId: string, questionId: string | undefined) {
    if (questionId) {
      const question = await questions.findOne({ _id: questionId });
      if (!question) throw notFound(QUESTION_TEXTS.notFound);
      if (!question.status) throw conflict(CHECKIN_TEXTS.paused);
      return question;
    }
    const [active, sent] = await Promise.all([
      questions.find({ status: true }, { sort: QUESTION_SORT }),
      checkins.find({ userId }, { projection: { questionId: 1, sentAt: 1 } }),
    ]);
    const lastSent = new Map<string, string>();
    for (const s of sent) {
      if ((lastSent.get(s.questionId) ?? '') < s.sentAt) lastSent.set(s.questionId, s.sentAt);
    }
    const question = pickQuestion(active, lastSent);
    if (!question) throw notFound(CHECKIN_TEXTS.noQuestion);
    return question;
  }

  /** Issues a question to a user: a fresh unguessable link credential (qlid) and one answer link per answer. */
  async function issue(userId: string, questionId?: string) {
    const question = await chooseQuestion(userId, questionId);
    const now = deps.clock();
    const qlid = randomToken(24);
    const checkinId = newId(now);
    const expiresAt = new Date(now.getTime() + deps.linkTtlDays * DAY_MS).toISOString();
    await command(
      checkinId,
      {
        kind: 'send',
        sent: {
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
      'system',
    );
    const q = encodeURIComponent(qlid);
    return {
      qlid,
      expiresAt,
      question: { _id: question._id, body: question.body, scale: question.scale },
      links: CHECKIN_ANSWERS.map((answer) => ({ answer, url: `${base}/checkin?qlid=${q}&a=${answer}` })),
    };
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
    const recorded = await command(
      found._id,
      { kind: 'answer', answer: value, now: deps.clock() },
      found.userId,
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

  /** One question for each user (the next active one by order not sent to them recently); none = absent. */
  async function issueBatch(userIds: string[]) {
    const out: Record<
      string,
      {
        question: Awaited<ReturnType<typeof issue>>['question'];
        links: Awaited<ReturnType<typeof issue>>['links'];
      }
    > = {};
    if ((await questions.countDocuments({ status: true })) === 0) return out;
    for (const userId of userIds) {
      const issued = await issue(userId);
      out[userId] = { question: issued.question, links: issued.links };
    }
    return out;
  }

  return { issue, issueBatch, answer, progress };
}

export type Checkins = ReturnType<typeof createCheckins>;
