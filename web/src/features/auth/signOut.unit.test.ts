import { call, put } from 'redux-saga/effects';
import { describe, expect, it } from 'vitest';
import { clearToken, readToken } from '../../shared/storage';
import { logOut } from './api';
import { signOut } from './saga';
import { signedOut } from './slice';

// Sign Out ends the session on the server (GET /auth/logout with the token), and the browser is signed out even when
// that call fails.
describe('signOut saga', () => {
  it('drops the token, asks the server to end the session with it, then signs out', () => {
    const saga = signOut();
    expect(saga.next().value).toEqual(call(readToken));
    expect(saga.next('tok').value).toEqual(call(clearToken));
    expect(saga.next().value).toEqual(call(logOut, 'tok'));
    expect(saga.next().value).toEqual(put(signedOut()));
  });

  it('still signs out when the server call fails', () => {
    const saga = signOut();
    saga.next();
    saga.next('tok');
    expect(saga.next().value).toEqual(call(logOut, 'tok'));
    const afterError = saga.throw(new Error('offline')).value as ReturnType<typeof call>;
    expect(afterError.type).toBe('CALL');
    expect(saga.next().value).toEqual(put(signedOut()));
  });

  it('without a stored token it still clears the Google sign-in cookie', () => {
    const saga = signOut();
    saga.next();
    expect(saga.next(null).value).toEqual(call(clearToken));
    expect(saga.next().value).toEqual(call(logOut, null));
  });
});
