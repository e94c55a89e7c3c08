import { createHmac } from 'node:crypto';
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

  it('a signer of one send makes open and click tokens that verify to their claims', () => {
    const sign = trackingSigner(secret, facts);
    expect(verifyTracking(secret, sign.open())).toEqual(facts);
    for (const [link, to] of [
      ['like', '/post/p1?a=like&uid='],
      ['checkin', '/api/checkin/answer?qlid=é€😀"<>'],
    ] as const)
      expect(verifyTracking(secret, sign.click(link, to))).toEqual({ ...facts, link, to });
    // Version 2 is shorter than a version-1 token of the same claims, which still verifies.
    const v1 = signTracking(secret, { ...facts, link: 'like', to: '/post/p1' });
    expect(verifyTracking(secret, v1)).toEqual({ ...facts, link: 'like', to: '/post/p1' });
    expect(sign.click('like', '/post/p1').length).toBeLessThan(v1.length - 100);
  });

  it('refuses a token whose payload or MAC was changed, or with the other version’s MAC length', () => {
    const token = trackingSigner(secret, facts).click('like', '/post/p1');
    const [body, mac] = token.split('.') as [string, string];
    const list = JSON.parse(Buffer.from(body, 'base64url').toString()) as unknown[];
    const forged = Buffer.from(JSON.stringify(['a1b2', 'someone-else', ...list.slice(2)])).toString(
      'base64url',
    );
    expect(verifyTracking(secret, `${forged}.${mac}`)).toBeNull();
    expect(verifyTracking(secret, `${body}.${mac.slice(0, -3)}AAA`)).toBeNull();
    expect(verifyTracking(trackingSecret('another'), token)).toBeNull();
    // A version-1 object with a 128-bit MAC, a version-2 list with the whole MAC: neither is a token we make.
    const v1 = signTracking(secret, facts);
    const [v1Body, v1Mac] = v1.split('.') as [string, string];
    const short = Buffer.from(v1Mac, 'base64url').subarray(0, 16).toString('base64url');
    expect(verifyTracking(secret, `${v1Body}.${short}`)).toBeNull();
    const whole = signTracking(secret, list).split('.')[1];
    expect(verifyTracking(secret, `${signTracking(secret, list).split('.')[0]}.${whole}`)).toBeNull();
    // A list of another length.
    const odd = signTracking(secret, list.slice(0, 7)).split('.')[0] as string;
    const oddMac = createHmac('sha256', secret).update(odd).digest().toString('base64url', 0, 16);
    expect(verifyTracking(secret, `${odd}.${oddMac}`)).toBeNull();
  });
});
