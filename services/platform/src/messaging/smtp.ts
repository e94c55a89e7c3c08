import type { MailSender } from './types';

export interface SmtpOptions {
  /** Connections kept open and reused (nodemailer's pool): one connection per message cost a TLS handshake each. */
  poolSize?: number;
  /** Messages a second handed to the server at most (0 or absent: no limit), by nodemailer's pool. */
  ratePerSecond?: number;
}

/**
 * Production mail: SMTP through nodemailer's connection pool (Mailpit in docker-compose), loaded on the first mail
 * (a process that only captures mail never loads it). `close()` ends the pool's connections.
 */
export function createSmtpMailSender(
  smtpUrl: string,
  from: string,
  opts: SmtpOptions = {},
): MailSender & { close(): void } {
  let transport: Promise<import('nodemailer').Transporter> | undefined;
  const domain = from.split('@')[1]?.replace(/[>\s].*$/, '') || 'nudge.local';
  const rate = opts.ratePerSecond ?? 0;
  return {
    async send({ to, subject, text, html, headers, idempotencyKey }) {
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
      await (await transport).sendMail({
        from,
        to,
        subject,
        text,
        ...(html ? { html } : {}),
        ...(headers ? { headers } : {}),
        // Mail servers and clients use the Message-ID to spot a re-delivery of the same reminder.
        ...(idempotencyKey ? { messageId: `<${idempotencyKey}@${domain}>` } : {}),
      });
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
