import { describe, expect, it } from 'vitest';
import { signTracking, trackingSecret, trackingSigner, verifyTracking } from './tracking';

describe('tracking tokens', () => {
  const secret = trackingSecret('internal-credential');
  const facts = {
    sendId: 'a1b2',
    userId: 'u"1\\',
    channel: 'email',
    localDate: '2026-11-24',
    templateId: 't1',
    subjectId: null,
  };

  it('a signer of one send makes the very tokens signTracking makes, and they verify', () => {
    const sign = trackingSigner(secret, facts);
    for (const more of <Record<string, string>[]>[
      {},
      { link: 'like', to: '/post/p1?uid=x.y&a=like' },
      { link: 'checkin', to: '/api/checkin/answer?qlid=é€😀"<>' },
    ]) {
      const token = sign(more);
      expect(token).toBe(signTracking(secret, { ...facts, ...more }));
      expect(verifyTracking(secret, token)).toEqual({ ...facts, ...more });
    }
    // A key the facts have already: the later value wins, as with a spread.
    expect(verifyTracking(secret, sign({ channel: 'whatsapp' }))).toEqual({ ...facts, channel: 'whatsapp' });
    expect(trackingSigner(secret, {})({ link: 'open' })).toBe(signTracking(secret, { link: 'open' }));
  });

  it('refuses a token whose payload or MAC was changed', () => {
    const token = trackingSigner(secret, facts)({ link: 'like', to: '/post/p1' });
    const [body, mac] = token.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ ...facts, userId: 'someone-else' })).toString('base64url');
    expect(verifyTracking(secret, `${forged}.${mac}`)).toBeNull();
    expect(verifyTracking(secret, `${body}.${mac.slice(0, -2)}AA`)).toBeNull();
    expect(verifyTracking(trackingSecret('another'), token)).toBeNull();
  });
});
