// Sign-in modal steps (reader.md §2 'Sign-in modal'): the login's steps in a dialog. Step 0 e-mail, step 1 code,
// step 2 only the e-mail notification time and an on/off toggle. Verified users finish right after the code;
// unverified ones go to step 2. Pure functions.
import type { ProfileInfo, User } from '../../shared/contracts';

export type ModalStep = 0 | 1 | 2;

export interface ModalView {
  show: boolean;
  step: ModalStep;
}

export type ModalEvent =
  | { type: 'opened' }
  | { type: 'codeSent' }
  | { type: 'back' }
  | { type: 'verified'; verified: boolean }
  | { type: 'profileSaved' }
  | { type: 'closed' };

export const closedModal: ModalView = { show: false, step: 0 };

export function nextModalView(view: ModalView, event: ModalEvent): ModalView {
  switch (event.type) {
    case 'opened':
      return { show: true, step: 0 };
    case 'codeSent':
      return view.show && view.step === 0 ? { show: true, step: 1 } : view;
    case 'back':
      return view.show && view.step === 1 ? { show: true, step: 0 } : view;
    case 'verified':
      if (!view.show) return view;
      return event.verified ? closedModal : { show: true, step: 2 };
    case 'profileSaved':
    case 'closed':
      return closedModal;
  }
}

/**
 * Step 2's update (POST /api/user/update info): the reminder time, whether e-mail reminders are on, and (our
 * addition) the topics picked there.
 */
export function modalProfileInfo(
  user: Pick<User, 'email' | 'notiinfo'>,
  values: { time: string; enableEmail: boolean; topics?: string[]; ageConfirmed?: boolean },
  timeZone: string | undefined,
): ProfileInfo {
  return {
    email: user.email,
    notiinfo: { time: values.time, active: user.notiinfo.active },
    enableEmail: values.enableEmail,
    ...(values.topics ? { topics: values.topics } : {}),
    ...(timeZone ? { timeZone } : {}),
    ...(values.ageConfirmed ? { ageConfirmed: true } : {}),
  };
}
