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

describe('credentials never reach the event log', () => {
  it('redacts sign-in and check-in tokens in the query, keeping other parameters', () => {
    const event = pageVisitEvent(null, '/', 'https://nudge.example/?uid=eyJhbGciOi.secret.sig&page=all');
    expect(event.metadata).toEqual({ url: 'https://nudge.example/?uid=redacted&page=all' });
    expect(
      pageVisitEvent(null, '/checkin', 'https://nudge.example/checkin?qlid=abc123&a=3').metadata,
    ).toEqual({
      url: 'https://nudge.example/checkin?qlid=redacted&a=3',
    });
  });

  it('redacts the unsubscribe token in the path', () => {
    const event = pageVisitEvent(
      null,
      '/unsubscribe/eyJ.tok.en',
      'https://nudge.example/unsubscribe/eyJ.tok.en',
    );
    expect(event.eventValue).toBe('/unsubscribe/redacted');
    expect(event.metadata).toEqual({ url: 'https://nudge.example/unsubscribe/redacted' });
  });
});
