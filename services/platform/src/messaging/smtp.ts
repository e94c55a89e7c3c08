import { addressOf, composeRaw, type DkimKey } from './compose';
import type { MailSender } from './types';

export interface SmtpOptions {
  /** Connections kept open and reused (nodemailer's pool): one connection per message cost a TLS handshake each. */
  poolSize?: number;
  /** Messages a second handed to the server at most (0 or absent: no limit), by nodemailer's pool. */
  ratePerSecond?: number;
  /** The key that signs every message (DKIM). */
  dkim?: DkimKey;
}

/**
 * Production mail: SMTP through nodemailer's connection pool (Mailpit in docker-compose), loaded on the first mail
 * (a process that only captures mail never loads it). `close()` ends the pool's connections. Each message is composed
 * (and signed, with a DKIM key) by composeRaw, which refuses to hand over a message it was asked to sign and could
 * not, and sent as it is.
 */
export function createSmtpMailSender(
  smtpUrl: string,
  from: string,
  opts: SmtpOptions = {},
): MailSender & { close(): void } {
  let transport: Promise<import('nodemailer').Transporter> | undefined;
  const rate = opts.ratePerSecond ?? 0;
  return {
    async send(message) {
      transport ??= Promise.all([import('nodemailer'), import('nodemailer/lib/smtp-pool/index.js')]).then(
        ([mailer, pool]) =>
          mailer.default.createTransport(
            new pool.default({
              pool: true,
              url: smtpUrl,
              maxConnections: opts.poolSize ?? 5,
              // nodemailer's pool spaces messages out over rateDelta: a fraction of a second keeps bursts small.
              ...(rate > 0 ? rateOptions(rate) : {}),
            }),
          ),
      );
      const raw = await composeRaw(message, from, opts.dkim);
      await (await transport).sendMail({ envelope: { from: addressOf(from), to: message.to }, raw });
    },
    close() {
      void transport?.then((t) => t.close());
    },
  };
}

/** nodemailer's pool limit: `rateLimit` messages per `rateDelta` ms (at least one message per window). */
function rateOptions(perSecond: number): { rateLimit: number; rateDelta: number } {
  if (perSecond >= 10) return { rateLimit: Math.round(perSecond / 10), rateDelta: 100 };
  return { rateLimit: 1, rateDelta: Math.round(1000 / perSecond) };
}
