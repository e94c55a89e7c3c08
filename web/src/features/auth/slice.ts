import { createAction, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { User } from '../../shared/contracts';

export interface AuthState {
  isLogin: boolean;
  user: User | null;
  /** The e-mail being signed in with (the login form), then the signed-in user's. */
  email: string;
  /** The check of the stored token at start; the app shows a full-screen spinner until it is done. */
  tokenCheck: 'pending' | 'done';
  /** Step 0 (e-mail) or 1 (code); step 2, the profile form, follows from a signed-in user without names. */
  loginStep: 0 | 1;
  loginPending: 'none' | 'requestingCode' | 'verifying';
  /** Why the last code (or the request for a new one) was refused, shown next to the code field. */
  codeError: string;
  /** Refused codes so far: each one clears the code field. */
  codeRejections: number;
}

const initialState: AuthState = {
  isLogin: false,
  user: null,
  email: '',
  tokenCheck: 'pending',
  loginStep: 0,
  loginPending: 'none',
  codeError: '',
  codeRejections: 0,
};

export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    tokenCheckFinished(state) {
      state.tokenCheck = 'done';
    },
    signedIn(state, action: PayloadAction<User>) {
      state.isLogin = true;
      state.user = action.payload;
      state.email = action.payload.email;
      state.loginStep = 0;
      state.loginPending = 'none';
    },
    userUpdated(state, action: PayloadAction<User>) {
      state.user = action.payload;
    },
    whatsAppNumberVerified(state, action: PayloadAction<string>) {
      if (state.user) {
        state.user.phone = action.payload;
        state.user.enableWA = true;
      }
    },
    signedOut(state) {
      state.isLogin = false;
      state.user = null;
      state.email = '';
      state.loginStep = 0;
    },
    codeRequested(state, action: PayloadAction<string>) {
      state.email = action.payload;
      state.loginPending = 'requestingCode';
    },
    codeSent(state) {
      state.loginStep = 1;
      state.loginPending = 'none';
      state.codeError = '';
    },
    codeRequestFailed(state, action: PayloadAction<string>) {
      state.loginPending = 'none';
      // On the code step (a resend) the reason shows next to the field; on the e-mail step a toast says it.
      if (state.loginStep === 1) state.codeError = action.payload;
    },
    loginStepBack(state) {
      state.loginStep = 0;
      state.codeError = '';
    },
    codeSubmitted(state, _action: PayloadAction<string>) {
      state.loginPending = 'verifying';
      state.codeError = '';
    },
    codeRejected(state, action: PayloadAction<string>) {
      state.loginPending = 'none';
      state.codeError = action.payload;
      state.codeRejections += 1;
    },
  },
});

export const {
  tokenCheckFinished,
  signedIn,
  userUpdated,
  whatsAppNumberVerified,
  signedOut,
  codeRequested,
  codeSent,
  codeRequestFailed,
  loginStepBack,
  codeSubmitted,
  codeRejected,
} = authSlice.actions;

/** Spend the `uid` of an e-mail sign-in link or of Google's return. */
export const linkSignInRequested = createAction<string>('auth/linkSignInRequested');
export const signOutRequested = createAction('auth/signOutRequested');
/** Starts the server-side Google sign-in; the payload is the current page's URL and origin. */
export const googleSignInRequested = createAction<{ currentUrl: string; origin: string }>(
  'auth/googleSignInRequested',
);
