import type { RootState } from '../../app/store';

export const selectIsLogin = (state: RootState) => state.auth.isLogin;
export const selectUser = (state: RootState) => state.auth.user;
export const selectLoginEmail = (state: RootState) => state.auth.email;
export const selectLoginStep = (state: RootState) => state.auth.loginStep;
export const selectLoginPending = (state: RootState) => state.auth.loginPending;
export const selectTokenCheckDone = (state: RootState) => state.auth.tokenCheck === 'done';
