import { describe, expect, it } from 'vitest';
import {
  CHECKIN_DESTINATION,
  CHECKIN_REDIRECT_MS,
  CHECKIN_TEXTS,
  checkinPath,
  checkinResult,
  checkinView,
  parseCheckinQuery,
} from './checkinRules';

const user = { _id: 'u1', email: 'a@b.co', role: 'user' };

describe('check-in query', () => {
  it('needs both qlid and a', () => {
    expect(parseCheckinQuery(new URLSearchParams('qlid=q1&a=3'))).toEqual({ qlid: 'q1', a: '3' });
    expect(parseCheckinQuery(new URLSearchParams('qlid=q1'))).toBeNull();
    expect(parseCheckinQuery(new URLSearchParams('a=3'))).toBeNull();
    expect(parseCheckinQuery(new URLSearchParams('qlid=%20&a=3'))).toBeNull();
    expect(parseCheckinQuery(new URLSearchParams(''))).toBeNull();
  });

  it('goes into the call path, encoded', () => {
    expect(checkinPath({ qlid: 'q1', a: '3' })).toBe('/api/checkin?qlid=q1&a=3');
    expect(checkinPath({ qlid: 'a&b', a: 'x y' })).toBe('/api/checkin?qlid=a%26b&a=x%20y');
  });
});

describe('check-in outcome', () => {
  it('is recorded for a new answer and alreadyAnswered when the server says so', () => {
    expect(checkinResult({ status: true, user, token: 't' })).toEqual({ kind: 'recorded', user, token: 't' });
    expect(checkinResult({ status: true, user, token: 't', alreadyAnswered: true })).toEqual({
      kind: 'alreadyAnswered',
      user,
      token: 't',
    });
  });

  it('is an error without a user or a token', () => {
    expect(checkinResult({ status: true, token: 't' })).toEqual({ kind: 'error' });
    expect(checkinResult({ status: true, user })).toEqual({ kind: 'error' });
    expect(checkinResult({ status: false, user, token: 't' })).toEqual({ kind: 'error' });
    expect(checkinResult(null)).toEqual({ kind: 'error' });
  });
});

describe('check-in view', () => {
  it('uses the spec texts and icons', () => {
    expect(checkinView('recorded')).toEqual({
      text: CHECKIN_TEXTS.recorded,
      icon: 'success',
      redirects: true,
    });
    expect(checkinView('alreadyAnswered')).toEqual({
      text: CHECKIN_TEXTS.alreadyAnswered,
      icon: 'failure',
      redirects: true,
    });
    expect(checkinView('invalid')).toEqual({
      text: 'Invalid query parameters.',
      icon: 'failure',
      redirects: false,
    });
    expect(checkinView('error')).toEqual({
      text: 'An error occurred. Please try again later.',
      icon: 'failure',
      redirects: false,
    });
    expect(checkinView('loading').redirects).toBe(false);
  });

  it('moves on to /?page=all after 5 seconds', () => {
    expect(CHECKIN_REDIRECT_MS).toBe(5000);
    expect(CHECKIN_DESTINATION).toBe('/?page=all');
  });
});
