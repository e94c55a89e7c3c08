import { describe, expect, it } from 'vitest';
import { NOTIFICATION_UPDATED, notificationInfo, notificationStateText } from './notificationToggle';

const user = {
  email: 'ann@example.com',
  firstname: 'Ann',
  lastname: 'Lee',
  notiinfo: { time: '07:45', active: true },
  phone: '9876543210',
  enableWA: true,
  enableEmail: false,
  topics: ['t1', 't2'],
};

describe('notification toggle', () => {
  it("sends the user's info with only notiinfo.active changed", () => {
    expect(notificationInfo(user, false)).toEqual({
      email: 'ann@example.com',
      firstname: 'Ann',
      lastname: 'Lee',
      notiinfo: { time: '07:45', active: false },
      phone: '9876543210',
      enableWA: true,
      enableEmail: false,
      topics: ['t1', 't2'],
    });
    expect(notificationInfo({ ...user, notiinfo: { time: '07:45', active: false } }, true).notiinfo).toEqual({
      time: '07:45',
      active: true,
    });
  });

  it('reads On or Paused and toasts Updated', () => {
    expect(notificationStateText(true)).toBe('On');
    expect(notificationStateText(false)).toBe('Paused');
    expect(NOTIFICATION_UPDATED).toBe('Updated');
  });
});
