import { addDays, dayKey, usableTimeZone } from '@nudge/contracts';
import { describe, expect, it } from 'vitest';
import { pickQuestion } from '../src/domain/checkin-questions';
import { decideAnswer, NO_ANSWERS_MESSAGE, scoreOf, wellbeing } from '../src/domain/checkins';
import { commentRefusal, decideDeleteComment, decideEditComment, isRefusal } from '../src/domain/comments';
import { decideLike } from '../src/domain/likes';
import { readingDays } from '../src/domain/reading-days';

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

  it('decides an answer: record once, then already answered; nothing after expiry', () => {
    const state = {
      _id: 'c1',
      userId: 'u1',
      questionId: 'q1',
      scale: 'reverse' as const,
      sentAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-01-15T00:00:00.000Z',
      answer: null,
      version: 1,
    };
    const recorded = decideAnswer(state, 2, new Date('2026-01-02T00:00:00.000Z'));
    expect(recorded.kind).toBe('record');
    if (recorded.kind === 'record') expect(recorded.events[0]?.data).toMatchObject({ answer: 2, score: 75 });
    expect(decideAnswer({ ...state, answer: 4 }, 2, new Date('2026-01-02T00:00:00.000Z'))).toEqual({
      kind: 'alreadyAnswered',
    });
    expect(decideAnswer(state, 2, new Date('2026-01-15T00:00:00.000Z'))).toEqual({ kind: 'expired' });
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
  it('decides a like only when the state changes', () => {
    const cmd = { userId: 'u', templateId: 't', liked: true };
    expect(decideLike(null, cmd)).toHaveLength(1);
    expect(decideLike({ liked: true, version: 1 }, cmd)).toEqual([]);
    expect(decideLike(null, { ...cmd, liked: false })).toEqual([]);
    expect(decideLike({ liked: true, version: 1 }, { ...cmd, liked: false })).toHaveLength(1);
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

  it('lets the author edit and the author or an admin delete', () => {
    const state = { _id: 'c', templateId: 't', userId: 'u', message: 'm', deleted: false, version: 1 };
    expect(isRefusal(decideEditComment(state, { userId: 'x', message: 'n' }))).toBe(true);
    expect(decideEditComment(state, { userId: 'u', message: 'm' })).toEqual([]);
    expect(decideEditComment(state, { userId: 'u', message: 'n' })).toHaveLength(1);
    expect(isRefusal(decideDeleteComment(state, { userId: 'x', role: 'premium' }))).toBe(true);
    expect(decideDeleteComment(state, { userId: 'x', role: 'admin' })).toHaveLength(1);
    expect(isRefusal(decideDeleteComment({ ...state, deleted: true }, { userId: 'u', role: 'user' }))).toBe(
      true,
    );
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
