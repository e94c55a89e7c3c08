import { call, put } from 'redux-saga/effects';
import { describe, expect, it } from 'vitest';
import { clearToken, readToken } from '../../shared/storage';
import { endSession, logOut } from './api';
import { signOut } from './saga';
import { signedOut } from './slice';

// Sign Out ends the session on the server (issue 14), and the browser is signed out even when that call fails.
describe('signOut saga', () => {
  it('drops the token, asks the server to end the session, then signs out', () => {
    const saga = signOut();
    expect(saga.next().value).toEqual(call(readToken));
    expect(saga.next('tok').value).toEqual(call(clearToken));
    expect(saga.next().value).toEqual(call(endSession, 'tok'));
    expect(saga.next().value).toEqual(call(logOut));
    expect(saga.next().value).toEqual(put(signedOut()));
  });

  it('still signs out when ending the session on the server fails', () => {
    const saga = signOut();
    saga.next();
    saga.next('tok');
    expect(saga.next().value).toEqual(call(endSession, 'tok'));
    const afterError = saga.throw(new Error('offline')).value as ReturnType<typeof call>;
    expect(afterError.type).toBe('CALL');
    expect(saga.next().value).toEqual(call(logOut));
    expect(saga.next().value).toEqual(put(signedOut()));
  });

  it('without a stored token it calls no server end', () => {
    const saga = signOut();
    saga.next();
    expect(saga.next(null).value).toEqual(call(clearToken));
    expect(saga.next().value).toEqual(call(logOut));
  });
});
