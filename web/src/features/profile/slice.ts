import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { ProfileInfo } from '../../shared/contracts';
import { initialOtpStage, nextOtpStage, OTP_STAGE, type OtpStage } from './otpStage';
import type { Topic } from './types';

export interface ProfileState {
  topics: Topic[];
  topicsStatus: 'idle' | 'loading' | 'loaded' | 'failed';
  otpStage: OtpStage;
  otpPending: boolean;
  saving: boolean;
}

const initialState: ProfileState = {
  topics: [],
  topicsStatus: 'idle',
  otpStage: OTP_STAGE.notSent,
  otpPending: false,
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
    },
    otpCodeSent(state) {
      state.otpStage = nextOtpStage(state.otpStage, { type: 'codeSent' });
      state.otpPending = false;
    },
    otpCodeSubmitted(state, _action: PayloadAction<{ phone: string; otp: string }>) {
      state.otpPending = true;
    },
    otpCodeVerified(state) {
      state.otpStage = nextOtpStage(state.otpStage, { type: 'codeVerified' });
      state.otpPending = false;
    },
    otpFailed(state) {
      state.otpPending = false;
    },
    whatsAppNumberChangeRequested(state) {
      state.otpStage = nextOtpStage(state.otpStage, { type: 'changeNumber' });
    },
    whatsAppNumberEdited(state) {
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
