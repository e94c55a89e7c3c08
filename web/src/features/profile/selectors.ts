import type { RootState } from '../../app/store';

export const selectTopics = (state: RootState) => state.profile.topics;
export const selectTopicsStatus = (state: RootState) => state.profile.topicsStatus;
export const selectOtpStage = (state: RootState) => state.profile.otpStage;
export const selectOtpPending = (state: RootState) => state.profile.otpPending;
export const selectProfileSaving = (state: RootState) => state.profile.saving;
export const selectOtpError = (state: RootState) => state.profile.otpError;
