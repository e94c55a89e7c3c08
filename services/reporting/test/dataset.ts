import { AuthEvents, ContentEvents, EngagementEvents, ReminderEvents } from '@nudge/contracts';
import { newId } from '@nudge/platform';
import type { Harness, TestUser } from './harness';

/**
 * The hand-computed data set of the metric tests (today is 2026-11-20, UTC).
 * Monitored: A (registered 2026-09-15), B (2026-10-05), C (2026-11-02). D (2026-09-01) is not monitored.
 * Sep: A signs in; D signs in.           Oct: A reads, B likes; q1 sent to A and B, A answers q1.
 * Nov: C visits a page (web event at 2026-11-20), q2 sent to C and answered, q1 sent to A (no answer), A opens an
 * e-mail. Expected figures are written next to the tests that check them.
 */
export async function seedDataset(h: Harness) {
  const A = await h.user({ registeredAt: '2026-09-15T10:00:00.000Z' });
  const B = await h.user({ registeredAt: '2026-10-05T10:00:00.000Z' });
  const C = await h.user({ registeredAt: '2026-11-02T10:00:00.000Z' });
  const D = await h.user({ registeredAt: '2026-09-01T10:00:00.000Z' });
  const q1 = newId(new Date('2026-08-01T00:00:00Z'));
  const q2 = newId(new Date('2026-08-02T00:00:00Z'));
  const template = newId();
  const question = (id: string, body: string, scale: 'normal' | 'reverse') =>
    h.event(
      EngagementEvents.CheckinQuestionAdded,
      {
        questionId: id,
        body,
        scale,
        order: 0,
        tags: [],
        status: true,
        createdAt: '2026-08-01T00:00:00.000Z',
      },
      '2026-08-01T00:00:00.000Z',
      `checkinq-${id}`,
    );
  const sent = (u: TestUser, q: string, at: string) => {
    const checkinId = newId();
    return {
      checkinId,
      event: h.event(
        EngagementEvents.CheckinQuestionSent,
        {
          checkinId,
          userId: u.userId,
          questionId: q,
          body: 'b',
          scale: 'normal',
          qlidHash: 'h'.repeat(64),
          sentAt: at,
          expiresAt: '2027-01-01T00:00:00.000Z',
        },
        at,
        `checkin-${checkinId}`,
      ),
    };
  };
  const answered = (u: TestUser, q: string, checkinId: string, at: string) =>
    h.event(
      EngagementEvents.CheckinAnswered,
      {
        checkinId,
        userId: u.userId,
        questionId: q,
        scale: 'normal',
        answer: 4,
        score: 75,
        sentAt: at,
        answeredAt: at,
      },
      at,
      `checkin-${checkinId}`,
    );
  const signIn = (u: TestUser, at: string) =>
    h.event(AuthEvents.UserSignedIn, { userId: u.userId, method: 'code' }, at, `user-${u.userId}`);

  await h.publish('auth', [signIn(A, '2026-09-20T09:00:00.000Z'), signIn(D, '2026-09-21T09:00:00.000Z')]);
  await h.publish('content', [
    h.event(
      ContentEvents.PostOpened,
      { userId: A.userId, templateId: template, type: 1, openedAt: '2026-10-02T09:00:00.000Z' },
      '2026-10-02T09:00:00.000Z',
    ),
  ]);
  const like = h.event(
    EngagementEvents.LikeSet,
    { userId: B.userId, templateId: template, liked: true },
    '2026-10-10T09:00:00.000Z',
  );
  const octA = sent(A, q1, '2026-10-03T08:00:00.000Z');
  const octB = sent(B, q1, '2026-10-06T08:00:00.000Z');
  const novC = sent(C, q2, '2026-11-03T08:00:00.000Z');
  const novA = sent(A, q1, '2026-11-05T08:00:00.000Z');
  const answerA = answered(A, q1, octA.checkinId, '2026-10-04T08:00:00.000Z');
  await h.publish('engagement', [
    question(q1, 'How calm do you feel?', 'normal'),
    question(q2, 'How stressed are you?', 'reverse'),
    like,
    octA.event,
    octB.event,
    novC.event,
    novA.event,
    answerA,
    answered(C, q2, novC.checkinId, '2026-11-04T08:00:00.000Z'),
  ]);
  const open = h.event(
    ReminderEvents.ReminderOpened,
    {
      sendId: 's'.repeat(32),
      userId: A.userId,
      channel: 'email',
      localDate: '2026-11-06',
      templateId: template,
      subjectId: null,
      openedAt: '2026-11-06T08:00:00.000Z',
    },
    '2026-11-06T08:00:00.000Z',
  );
  await h.publish('engagement', [open]);
  // C's page visit, through the intake (stamped 2026-11-20 by the harness clock).
  await h.post('/api/eventlogs', { eventType: 'page_visit', eventValue: '/' }, C.token);
  await h.service.intake.flush();
  return { A, B, C, D, q1, q2, template, redeliverable: [like, answerA, open] };
}
