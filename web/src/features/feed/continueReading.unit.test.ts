import { describe, expect, it } from 'vitest';
import { continueReadingEvent, isContinueReading } from './continueReading';

describe('continue reading', () => {
  it('is recognised from the event query only', () => {
    expect(isContinueReading('continue_reading')).toBe(true);
    expect(isContinueReading('like')).toBe(false);
    expect(isContinueReading(null)).toBe(false);
  });

  it('sends email_continue_reading with the token when there is one', () => {
    expect(continueReadingEvent('t0k', '/', 'https://n.example/?event=continue_reading')).toEqual({
      token: 't0k',
      eventType: 'email_continue_reading',
      eventValue: '/',
      metadata: { url: 'https://n.example/?event=continue_reading' },
    });
    expect(continueReadingEvent(null, '/', 'https://n.example/')).not.toHaveProperty('token');
  });
});
