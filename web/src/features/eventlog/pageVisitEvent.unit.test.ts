import { describe, expect, it } from 'vitest';
import { pageVisitEvent } from './pageVisitEvent';

describe('pageVisitEvent', () => {
  it('sends the path as value and the full URL as metadata', () => {
    expect(pageVisitEvent('t0k', '/setting', 'https://nudge.example/setting')).toEqual({
      token: 't0k',
      eventType: 'page_visit',
      eventValue: '/setting',
      metadata: { url: 'https://nudge.example/setting' },
    });
  });

  it('leaves the token out for signed-out visitors', () => {
    expect(pageVisitEvent(null, '/', 'https://nudge.example/')).not.toHaveProperty('token');
  });
});
