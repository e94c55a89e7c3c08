import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { dkimVerify } from 'mailauth';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { createEmbeddedStore } from '../store';
import type { DkimKey } from './compose';
import { captureMail, createDevOutbox } from './outbox';
import { createSmtpMailSender } from './smtp';

const FROM = 'Nudge <no-reply@mail.nudge.test>';

/** A key pair of our own standing in for the sending domain's, with the TXT record a provider would look up. */
function dkimKeys(selector = 'nudge1', domain = 'nudge.test') {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const p = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  const key: DkimKey = {
    domainName: domain,
    keySelector: selector,
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
  const records = new Map([[`${selector}._domainkey.${domain}`, `v=DKIM1; k=rsa; p=${p}`]]);
  /** A DNS resolver of the test: only the DKIM record is known. */
  const resolver = async (name: string, type: string) => {
    const txt = records.get(name);
    if (type !== 'TXT' || !txt)
      throw Object.assign(new Error(`no ${type} for ${name}`), { code: 'ENOTFOUND' });
    return [[txt]];
  };
  return { key, resolver };
}

const reminder = {
  to: 'reader@example.com',
  subject: 'Your nudge for today',
  text: 'Read today’s post: https://nudge.test/post/1',
  html: '<p>Read <a href="https://nudge.test/post/1">today’s post</a></p>',
  headers: {
    'List-Unsubscribe': '<https://nudge.test/api/user/unsubscribe/abc>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  },
  idempotencyKey: 'send-1',
};

const servers: SMTPServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise<void>((done) => server.close(() => done()));
});

/** A local SMTP server that accepts everything and keeps each message as received. */
async function smtpServer() {
  const received: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push(Buffer.concat(chunks).toString('utf8'));
        done();
      });
    },
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received };
}

describe('DKIM signing of every e-mail', () => {
  it('signs what the capture transport holds, aligned with the From domain, and mailauth verifies it', async () => {
    const { key, resolver } = dkimKeys();
    const store = createEmbeddedStore({});
    const outbox = createDevOutbox(store);
    await captureMail(outbox, { from: FROM, dkim: key }).send(reminder);
    const [held] = await outbox.list();
    expect(held?.raw).toBeDefined();
    const result = await dkimVerify(Buffer.from(held?.raw ?? ''), { resolver });
    const [signature] = result.results;
    expect(signature?.status.result).toBe('pass');
    expect(signature?.signingDomain).toBe('nudge.test');
    expect(signature?.status.aligned).toBe('nudge.test');
    // The one-click unsubscribe headers are covered by the signature (a relay cannot strip or change them).
    const signed = /^DKIM-Signature:[\s\S]*?\bh=([^;]+);/m.exec(held?.raw ?? '')?.[1]?.replace(/\s+/g, '');
    expect(signed?.toLowerCase().split(':')).toContain('list-unsubscribe');
    await store.close();
  });

  it('signs what goes out over SMTP, and a message changed on the way fails verification', async () => {
    const { key, resolver } = dkimKeys();
    const server = await smtpServer();
    await createSmtpMailSender(server.url, FROM, { dkim: key }).send(reminder);
    const [raw = ''] = server.received;
    expect((await dkimVerify(Buffer.from(raw), { resolver })).results[0]?.status.result).toBe('pass');
    expect(raw).toContain('Subject: Your nudge for today');
    const tampered = raw.replace('Subject: Your nudge for today', 'Subject: You won a prize');
    expect((await dkimVerify(Buffer.from(tampered), { resolver })).results[0]?.status.result).toBe('fail');
  });

  it('refuses to send unsigned when the key cannot sign', async () => {
    const ed25519 = generateKeyPairSync('ed25519')
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const key: DkimKey = { domainName: 'nudge.test', keySelector: 'nudge1', privateKey: ed25519 };
    const server = await smtpServer();
    await expect(createSmtpMailSender(server.url, FROM, { dkim: key }).send(reminder)).rejects.toThrow(
      /not sent unsigned/,
    );
    expect(server.received).toEqual([]);
    const store = createEmbeddedStore({});
    const outbox = createDevOutbox(store);
    await expect(captureMail(outbox, { from: FROM, dkim: key }).send(reminder)).rejects.toThrow(/unsigned/);
    expect(await outbox.list()).toEqual([]);
    await store.close();
  });
});

describe('DKIM settings', () => {
  const { key } = dkimKeys();
  const errors = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return [];
    } catch (err) {
      if (err instanceof ConfigError) return err.problems;
      throw err;
    }
  };

  it('start only with a domain, a selector and an RSA key, the domain aligned with MAIL_FROM', () => {
    const ok = {
      MAIL_FROM: FROM,
      DKIM_DOMAIN: 'nudge.test',
      DKIM_SELECTOR: 'nudge1',
      DKIM_PRIVATE_KEY: key.privateKey,
    };
    expect(errors(ok)).toEqual([]);
    expect(errors({ ...ok, DKIM_SELECTOR: '' }).join()).toMatch(/DKIM_SELECTOR: required/);
    expect(errors({ ...ok, DKIM_PRIVATE_KEY: 'not a key' }).join()).toMatch(/DKIM_PRIVATE_KEY: not a PEM/);
    const ed = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(errors({ ...ok, DKIM_PRIVATE_KEY: ed }).join()).toMatch(/RSA key is needed/);
    expect(errors({ ...ok, DKIM_DOMAIN: 'other.test' }).join()).toMatch(/does not align with MAIL_FROM/);
  });
});
