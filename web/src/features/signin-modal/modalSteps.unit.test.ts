import { describe, expect, it } from 'vitest';
import { emailProblem } from '../auth/rules';
import { closedModal, type ModalView, modalProfileInfo, nextModalView } from './modalSteps';

const open = (step: ModalView['step']): ModalView => ({ show: true, step });

describe('sign-in modal steps', () => {
  it('opens on the e-mail step', () => {
    expect(nextModalView(closedModal, { type: 'opened' })).toEqual(open(0));
    expect(nextModalView(open(1), { type: 'opened' })).toEqual(open(0));
  });

  it('moves to the code once it is sent, and back with the back icon', () => {
    expect(nextModalView(open(0), { type: 'codeSent' })).toEqual(open(1));
    expect(nextModalView(open(1), { type: 'back' })).toEqual(open(0));
    expect(nextModalView(open(2), { type: 'back' })).toEqual(open(2));
    expect(nextModalView(closedModal, { type: 'codeSent' })).toEqual(closedModal);
  });

  it('finishes verified users at once and sends unverified ones to step 2', () => {
    expect(nextModalView(open(1), { type: 'verified', verified: true })).toEqual(closedModal);
    expect(nextModalView(open(1), { type: 'verified', verified: false })).toEqual(open(2));
    expect(nextModalView(closedModal, { type: 'verified', verified: false })).toEqual(closedModal);
  });

  it('closes after step 2 or when dismissed', () => {
    expect(nextModalView(open(2), { type: 'profileSaved' })).toEqual(closedModal);
    expect(nextModalView(open(1), { type: 'closed' })).toEqual(closedModal);
  });

  it('asks for an e-mail with the spec text', () => {
    expect(emailProblem('   ')).toBe('Please enter your email');
  });
});

describe('modalProfileInfo', () => {
  it('sends only the reminder time, the e-mail toggle and the e-mail', () => {
    const user = { email: 'a@example.com', notiinfo: { time: '08:00', active: true } };
    expect(modalProfileInfo(user, { time: '07:15', enableEmail: false }, 'Europe/London')).toEqual({
      email: 'a@example.com',
      notiinfo: { time: '07:15', active: true },
      enableEmail: false,
      timeZone: 'Europe/London',
    });
    expect(modalProfileInfo(user, { time: '07:15', enableEmail: true }, undefined)).not.toHaveProperty(
      'timeZone',
    );
  });
});
