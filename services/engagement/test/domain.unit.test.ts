import { addDays, dayKey, EngagementEvents, ReminderEvents, usableTimeZone } from '@nudge/contracts';
import { given } from '@nudge/platform/testing';
import { describe, expect, it } from 'vitest';
import { pickQuestion } from '../src/domain/checkin-questions';
import { checkinDecider, NO_ANSWERS_MESSAGE, scoreOf, wellbeing } from '../src/domain/checkins';
import { commentDecider, commentRefusal } from '../src/domain/comments';
import { likeDecider } from '../src/domain/likes';
import { readingDays } from '../src/domain/reading-days';
import { reminderDecider } from '../src/domain/reminders';

describe('wellbeing score', () => {
  it('scores answers 1..5 on both scales', () => {
    expect([1, 2, 3, 4, 5].map((a) => scoreOf(a, 'normal'))).toEqual([0, 25, 50, 75, 100]);
    expect([1, 2, 3, 4, 5].map((a) => scoreOf(a, 'reverse'))).toEqual([100, 75, 50, 25, 0]);
  });

  it('averages and rounds; nothing yet gives 0 and a message', () => {
    expect(wellbeing([])).toEqual({ average: 0, message: NO_ANSWERS_MESSAGE });
    expect(
      wellbeing([
        { answer: 5, scale: 'normal' },
        { answer: 2, scale: 'reverse' },
        { answer: 2, scale: 'normal' },
      ]).average,
    ).toBe(67);
    expect(wellbeing([{ answer: 3, scale: 'reverse' }])).toEqual({
      average: 50,
      message: 'Your wellbeing score from 1 check-in answer.',
    });
  });

  it('decides an answer: record once, then already answered; nothing after expiry', async () => {
    const sent = {
      type: EngagementEvents.CheckinQuestionSent.type,
      data: {
        checkinId: 'c1',
        userId: 'u1',
        questionId: 'q1',
        body: 'How did you sleep?',
        scale: 'reverse',
        qlidHash: 'h',
        sentAt: '2026-01-01T00:00:00.000Z',
        expiresAt: '2026-01-15T00:00:00.000Z',
      },
    };
    const answer = (now: string) => ({ answer: 2, now: new Date(now) });
    const [answered] = await given(checkinDecider, [sent]).when(answer('2026-01-02T00:00:00.000Z'));
    expect(answered?.data).toMatchObject({ answer: 2, score: 75 });
    expect(await given(checkinDecider, [sent, answered!]).when(answer('2026-01-02T00:00:00.000Z'))).toEqual(
      [],
    );
    await expect(
      given(checkinDecider, [sent]).when(answer('2026-01-15T00:00:00.000Z')),
    ).rejects.toMatchObject({
      httpStatus: 410,
    });
  });
});

describe('question choice', () => {
  const qs = [
    { _id: 'a', status: true },
    { _id: 'p', status: false },
    { _id: 'b', status: true },
  ];
  it('takes the first active question never sent, then the one sent longest ago', () => {
    expect(pickQuestion(qs, new Map())?._id).toBe('a');
    expect(pickQuestion(qs, new Map([['a', '2026-01-01']]))?._id).toBe('b');
    expect(
      pickQuestion(
        qs,
        new Map([
          ['a', '2026-01-03'],
          ['b', '2026-01-02'],
        ]),
      )?._id,
    ).toBe('b');
    expect(pickQuestion([{ _id: 'p', status: false }], new Map())).toBeUndefined();
  });
});

describe('likes and comments', () => {
  it('decides a like only when the state changes', async () => {
    const like = { userId: 'u', templateId: 't', liked: true };
    const unlike = { ...like, liked: false };
    const liked = { type: EngagementEvents.LikeSet.type, data: like };
    expect(await given(likeDecider, []).when(like)).toEqual([liked]);
    expect(await given(likeDecider, [liked]).when(like)).toEqual([]);
    expect(await given(likeDecider, []).when(unlike)).toEqual([]);
    expect(await given(likeDecider, [liked]).when(unlike)).toEqual([
      { type: EngagementEvents.LikeSet.type, data: unlike },
    ]);
  });

  it('applies the comment permission rules in order: setting, premium, names', () => {
    const base = { role: 'user' as const, postType: 0, commentsOn: true, firstname: 'A', lastname: 'B' };
    expect(commentRefusal(base)).toBeNull();
    expect(commentRefusal({ ...base, commentsOn: false })?.message).toBe('Comments are turned off');
    expect(commentRefusal({ ...base, postType: 1 })?.kind).toBe('forbidden');
    expect(commentRefusal({ ...base, postType: 1, role: 'premium' })).toBeNull();
    expect(commentRefusal({ ...base, postType: 1, role: 'admin' })).toBeNull();
    expect(commentRefusal({ ...base, lastname: '  ' })?.kind).toBe('bad_request');
  });

  it('lets the author edit and the author or an admin delete', async () => {
    const added = {
      type: EngagementEvents.CommentAdded.type,
      data: { commentId: 'c', templateId: 't', userId: 'u', message: 'm' },
    };
    const edit = (userId: string, message: string) => ({
      kind: 'edit' as const,
      commentId: 'c',
      userId,
      message,
    });
    const remove = (userId: string, role: 'user' | 'premium' | 'admin') => ({
      kind: 'delete' as const,
      commentId: 'c',
      userId,
      role,
    });
    await expect(given(commentDecider, [added]).when(edit('x', 'n'))).rejects.toMatchObject({
      httpStatus: 403,
    });
    expect(await given(commentDecider, [added]).when(edit('u', 'm'))).toEqual([]);
    expect(await given(commentDecider, [added]).when(edit('u', 'n'))).toHaveLength(1);
    await expect(given(commentDecider, [added]).when(remove('x', 'premium'))).rejects.toMatchObject({
      httpStatus: 403,
    });
    const [deleted] = await given(commentDecider, [added]).when(remove('x', 'admin'));
    expect(deleted?.type).toBe(EngagementEvents.CommentDeleted.type);
    await expect(given(commentDecider, [added, deleted!]).when(remove('u', 'user'))).rejects.toMatchObject({
      httpStatus: 404,
    });
  });

  it('records a comment once per id: the same id again (a retried request) records nothing', async () => {
    const comment = { commentId: 'c', templateId: 't', userId: 'u', message: 'm' };
    const add = { kind: 'add' as const, ...comment };
    const [added] = await given(commentDecider, []).when(add);
    expect(added).toEqual({ type: EngagementEvents.CommentAdded.type, data: comment });
    expect(await given(commentDecider, [added!]).when(add)).toEqual([]);
  });
});

describe('reminder facts', () => {
  const sent = { type: ReminderEvents.ReminderSent.type, data: {} };
  it('attaches facts only to a recorded send, and an open only once', async () => {
    const open = { kind: 'open' as const, data: { sendId: 's' } };
    const click = { kind: 'click' as const, data: { sendId: 's' } };
    expect(await given(reminderDecider, []).when(open)).toEqual([]);
    const [opened] = await given(reminderDecider, [sent]).when(open);
    expect(opened?.type).toBe(ReminderEvents.ReminderOpened.type);
    expect(await given(reminderDecider, [sent, opened!]).when(open)).toEqual([]);
    expect(await given(reminderDecider, [sent, opened!]).when(click)).toHaveLength(1);
  });
});

describe('reading days', () => {
  it('finds the calendar day in a zone, across DST and year ends', () => {
    expect(dayKey(new Date('2026-03-10T19:00:00Z'), 'Asia/Kolkata')).toBe('2026-03-11');
    expect(dayKey(new Date('2026-03-10T03:00:00Z'), 'America/New_York')).toBe('2026-03-09');
    expect(dayKey(new Date('2026-12-31T23:30:00Z'), 'Europe/Berlin')).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(usableTimeZone('Mars/Olympus')).toBe('UTC');
    expect(usableTimeZone('')).toBe('UTC');
  });

  it('counts the streak across a DST change (New York, 8 March 2026)', () => {
    const reads = ['2026-03-07T15:00:00Z', '2026-03-08T15:00:00Z', '2026-03-09T15:00:00Z'];
    const summary = readingDays(reads, new Date('2026-03-10T15:00:00Z'), 'America/New_York');
    expect(summary.today).toBe('2026-03-10');
    expect(summary.streak).toBe(3);
    expect(summary.days.map((d) => d.read)).toEqual([false, false, false, true, true, true, false]);
  });
});
