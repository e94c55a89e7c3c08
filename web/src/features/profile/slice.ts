import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ProfileInfo } from '../../shared/contracts';
import { initialOtpStage, nextOtpStage, OTP_STAGE, type OtpStage } from './otpStage';
import type { Topic } from './types';

export interface ProfileState {
  topics: Topic[];
  topicsStatus: 'idle' | 'loading' | 'loaded' | 'failed';
  otpStage: OtpStage;
  otpPending: boolean;
  /** Why the last WhatsApp call failed (the server's message), shown at its field; null when it did not. */
  otpError: { stage: OtpStage; message: string } | null;
  saving: boolean;
}

const initialState: ProfileState = {
  topics: [],
  topicsStatus: 'idle',
  otpStage: OTP_STAGE.notSent,
  otpPending: false,
  otpError: null,
  saving: false,
};

export const profileSlice = createSlice({
  name: 'profile',
  initialState,
  reducers: {
    /** The form opened for this user: set the WhatsApp stage and (saga) load the topics. */
    profileFormOpened(state, action: PayloadAction<{ enableWA: boolean; phone: string }>) {
      state.otpStage = initialOtpStage(action.payload);
      state.otpPending = false;
      state.otpError = null;
    },
    topicsLoading(state) {
      state.topicsStatus = 'loading';
    },
    topicsLoaded(state, action: PayloadAction<Topic[]>) {
      state.topics = action.payload;
      state.topicsStatus = 'loaded';
    },
    topicsFailed(state) {
      state.topics = [];
      state.topicsStatus = 'failed';
    },
    otpCodeRequested(state, _action: PayloadAction<string>) {
      state.otpPending = true;
      state.otpError = null;
    },
    otpCodeSent(state) {
      state.otpStage = nextOtpStage(state.otpStage, { type: 'codeSent' });
      state.otpPending = false;
    },
    otpCodeSubmitted(state, _action: PayloadAction<{ phone: string; otp: string }>) {
      state.otpPending = true;
      state.otpError = null;
    },
    otpCodeVerified(state) {
      state.otpStage = nextOtpStage(state.otpStage, { type: 'codeVerified' });
      state.otpPending = false;
    },
    otpFailed(state, action: PayloadAction<string>) {
      state.otpPending = false;
      state.otpError = { stage: state.otpStage, message: action.payload };
    },
    whatsAppNumberChangeRequested(state) {
      state.otpError = null;
      state.otpStage = nextOtpStage(state.otpStage, { type: 'changeNumber' });
    },
    whatsAppNumberEdited(state) {
      state.otpError = null;
      state.otpStage = nextOtpStage(state.otpStage, { type: 'numberEdited' });
    },
    profileUpdateRequested(state, _action: PayloadAction<ProfileInfo>) {
      state.saving = true;
    },
    profileUpdateFinished(state) {
      state.saving = false;
    },
  },
});

export const {
  profileFormOpened,
  topicsLoading,
  topicsLoaded,
  topicsFailed,
  otpCodeRequested,
  otpCodeSent,
  otpCodeSubmitted,
  otpCodeVerified,
  otpFailed,
  whatsAppNumberChangeRequested,
  whatsAppNumberEdited,
  profileUpdateRequested,
  profileUpdateFinished,
} = profileSlice.actions;
