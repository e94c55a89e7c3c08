import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { signedOut } from '../auth/slice';
import { closedModal, type ModalStep, nextModalView } from './modalSteps';

/** Why the modal was opened: a like is done once signed in. */
export type ModalReason = 'like' | 'read' | 'comment';

export interface ModalState {
  /** reader.md §3 client state: modal visibility. */
  show: boolean;
  step: ModalStep;
  email: string;
  pending: 'none' | 'requestingCode' | 'verifying' | 'saving';
  reason: ModalReason | null;
  /** Why the last code (or resend) was refused, next to the code field; refused codes clear the field. */
  codeError: string;
  codeRejections: number;
}

const initialState: ModalState = {
  ...closedModal,
  email: '',
  pending: 'none',
  reason: null,
  codeError: '',
  codeRejections: 0,
};

export const modalSlice = createSlice({
  name: 'modal',
  initialState,
  reducers: {
    signInModalOpened(state, action: PayloadAction<ModalReason>) {
      Object.assign(state, nextModalView(state, { type: 'opened' }));
      state.pending = 'none';
      state.reason = action.payload;
    },
    signInModalClosed(state) {
      Object.assign(state, nextModalView(state, { type: 'closed' }));
      state.pending = 'none';
      state.reason = null;
    },
    modalCodeRequested(state, action: PayloadAction<string>) {
      state.email = action.payload;
      state.pending = 'requestingCode';
    },
    modalCodeSent(state) {
      Object.assign(state, nextModalView(state, { type: 'codeSent' }));
      state.pending = 'none';
      state.codeError = '';
    },
    /** A code refused (or a new one not sent, on the code step): the reason shows next to the field. */
    modalCodeRejected(state, action: PayloadAction<{ message: string; clear: boolean }>) {
      state.pending = 'none';
      if (state.step === 1) state.codeError = action.payload.message;
      if (action.payload.clear) state.codeRejections += 1;
    },
    modalStepBack(state) {
      Object.assign(state, nextModalView(state, { type: 'back' }));
    },
    modalCodeSubmitted(state, _action: PayloadAction<string>) {
      state.pending = 'verifying';
    },
    /** Signed in: verified users are done (the modal closes), unverified ones see step 2. */
    modalVerified(state, action: PayloadAction<boolean>) {
      Object.assign(state, nextModalView(state, { type: 'verified', verified: action.payload }));
      state.pending = 'none';
    },
    modalProfileSubmitted(
      state,
      _action: PayloadAction<{ time: string; enableEmail: boolean; topics: string[]; ageConfirmed: boolean }>,
    ) {
      state.pending = 'saving';
    },
    modalProfileSaved(state) {
      Object.assign(state, nextModalView(state, { type: 'profileSaved' }));
      state.pending = 'none';
    },
    modalRequestFailed(state) {
      state.pending = 'none';
    },
    /** The reader signed in through the modal (sent after modalVerified or modalProfileSaved). */
    signInModalFinished(state, _action: PayloadAction<ModalReason | null>) {
      state.reason = null;
    },
  },
  extraReducers: (builder) => {
    builder.addCase(signedOut, () => initialState);
  },
});

export const {
  signInModalOpened,
  signInModalClosed,
  modalCodeRequested,
  modalCodeSent,
  modalCodeRejected,
  modalStepBack,
  modalCodeSubmitted,
  modalVerified,
  modalProfileSubmitted,
  modalProfileSaved,
  modalRequestFailed,
  signInModalFinished,
} = modalSlice.actions;
