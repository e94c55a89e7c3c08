import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createLogger, createSmtpMailSender, type WhatsAppSender } from '@nudge/platform';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createReminderActivities } from '../src/activities/reminders';
import { fakeServices, reader } from './fixtures';

// The one place a send is decided checks the suppression list first, and a mail server's permanent refusal at send
// time is a hard bounce reported to it.

const servers: SMTPServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise<void>((done) => server.close(() => done()));
});

/** A local SMTP server that refuses one recipient for good (550 at RCPT TO) and accepts the others. */
async function refusingServer(refused: string) {
  const accepted: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, done) {
      if (address.address === refused) {
        const err = Object.assign(
          new Error('5.1.1 <r2@example.com>: Recipient address rejected: User unknown'),
          {
            responseCode: 550,
          },
        );
        return done(err);
      }
      done();
    },
    onData(stream, session, done) {
      stream.resume();
      stream.on('end', () => {
        accepted.push(...session.envelope.rcptTo.map((r) => r.address));
        done();
      });
    },
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`, accepted };
}

const activities = (
  services: ReturnType<typeof fakeServices>,
  smtpUrl: string,
  whatsapp: WhatsAppSender = { send: async () => undefined },
) =>
  createReminderActivities({
    call: services.call,
    mail: createSmtpMailSender(smtpUrl, 'Nudge <no-reply@nudge.test>'),
    whatsapp,
    trackingSecret: randomBytes(32),
    publicUrl: 'https://nudge.example',
    log: createLogger('test', 'silent'),
    clock: () => new Date('2026-11-24T08:00:05Z'),
    random: () => 0.5,
  });

const slot = '2026-11-24T08:00:00.000Z';

describe('reminders and the suppression list', () => {
  it('a 5xx at RCPT is a hard bounce: reported with the server’s words, not recorded as sent, not retried', async () => {
    const smtp = await refusingServer('r2@example.com');
    const services = fakeServices();
    const result = await activities(services, smtp.url).sendBatch({ slot, readers: [reader(2), reader(3)] });
    expect(result).toMatchObject({ sent: 1, failed: 0, suppressed: 1 });
    expect(smtp.accepted).toEqual(['r3@example.com']);
    expect(services.facts).toEqual([
      {
        kind: 'hard_bounce',
        channel: 'email',
        address: 'r2@example.com',
        source: 'smtp',
        detail: expect.stringContaining('550 5.1.1 <r2@example.com>: Recipient address rejected'),
      },
    ]);
  });

  it('sends nothing to a suppressed address, on either channel', async () => {
    const smtp = await refusingServer('nobody@example.com');
    const services = fakeServices({
      suppressed: [
        { channel: 'email', address: 'r1@example.com' },
        { channel: 'whatsapp', address: '9876543210' },
      ],
    });
    const texts: unknown[] = [];
    const result = await activities(services, smtp.url, {
      send: async (m) => void texts.push(m),
    }).sendBatch({ slot, readers: [reader(1), reader(3)] });
    expect(result).toMatchObject({ sent: 1, suppressed: 2 });
    expect(smtp.accepted).toEqual(['r3@example.com']);
    expect(texts).toEqual([]);
  });
});
