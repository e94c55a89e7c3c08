import { afterEach, describe, expect, it } from 'vitest';
import { type AuthHarness, startAuth } from './harness';

// WhatsApp verification codes cost money and land on someone's phone: besides 5 an hour per account, they are limited
// per destination number (whichever accounts ask) and per client address, in the shared store.
let auth: AuthHarness | undefined;
afterEach(async () => {
  await auth?.close();
  auth = undefined;
});

const askCode = (h: AuthHarness, who: { email: string; token: string }, phone: string) =>
  h.post('/api/user/otpTransaction', { token: who.token, email: who.email, phone, stage: 1, otp: 0 });

async function accounts(h: AuthHarness, n: number) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const email = `texter-${i}@example.com`;
    out.push({ email, token: (await h.signIn(email)).token });
  }
  return out;
}

const whatsAppTo = async (h: AuthHarness, to: string) =>
  (await h.outbox.list()).filter((m) => m.channel === 'whatsapp' && m.to === to);

describe('WhatsApp code limits', () => {
  it('one number gets at most 5 codes an hour, however many accounts ask, in whatever format', async () => {
    auth = await startAuth({ whatsAppIpLimitPerHour: 100 });
    const [one, two] = await accounts(auth, 2);
    const formats = ['9876543210', '+91 98765 43210', '098765-43210'];
    const replies = [];
    for (let i = 0; i < 10; i++) replies.push(await askCode(auth, (i % 2 ? two : one)!, formats[i % 3]!));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429, 429]);
    expect(replies[5]?.body).toEqual({
      status: false,
      message: 'Too many codes sent to this number; please wait a while',
    });
    expect(await whatsAppTo(auth, '+919876543210')).toHaveLength(5);
  });

  it('one client address gets at most its limit of codes an hour, across accounts and numbers', async () => {
    auth = await startAuth({ whatsAppIpLimitPerHour: 3 });
    const people = await accounts(auth, 4);
    const replies = [];
    for (const [i, who] of people.entries()) replies.push(await askCode(auth, who, `987654321${i}`));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(replies[3]?.body).toEqual({
      status: false,
      message: 'Too many codes requested from this network; please wait a while',
    });
    expect(await whatsAppTo(auth, '+919876543213')).toHaveLength(0);
  });
});
