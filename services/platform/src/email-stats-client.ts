import { EmailStatsResponse } from '@nudge/contracts';
import type { Logger } from 'pino';
import { createInternalClient } from './http/internal-client';

export type EmailStatsResult = Omit<EmailStatsResponse, 'status'>;
export const NO_EMAIL_STATS: EmailStatsResult = { templates: {}, users: {} };
const BATCH = 1000;

/**
 * Reads reporting's e-mail figures (POST /internal/email-stats) for the admin lists of auth and content. Reporting
 * owns the counts (one owner, no copies to keep in step); an answer missing within timeoutMs (~1 s), a refusal or
 * an unknown reporting URL gives no figures (the callers show zeros) and a warning, never a failed admin list.
 */
export function createEmailStatsClient(opts: {
  /** Read at call time (the standalone process fills it as services start). */
  reportingUrl: () => string | undefined;
  internalToken: string;
  log: Logger;
  timeoutMs?: number;
}) {
  const timeoutMs = opts.timeoutMs ?? 1_000;
  const client = createInternalClient({ internalToken: opts.internalToken });
  const one = async (body: { templateIds?: string[]; userIds?: string[] }): Promise<EmailStatsResult> => {
    const base = opts.reportingUrl();
    if (!base) return NO_EMAIL_STATS;
    try {
      const { templates, users } = EmailStatsResponse.parse(
        await client.call('reporting', base, '/internal/email-stats', { body, timeoutMs }),
      );
      return { templates, users };
    } catch (err) {
      opts.log.warn({ err }, 'e-mail figures from reporting unavailable: showing zeros');
      return NO_EMAIL_STATS;
    }
  };
  return {
    async read(req: { templateIds?: string[]; userIds?: string[] }): Promise<EmailStatsResult> {
      const templateIds = [...new Set(req.templateIds ?? [])];
      const userIds = [...new Set(req.userIds ?? [])];
      const calls: Promise<EmailStatsResult>[] = [];
      for (let i = 0; i < Math.max(templateIds.length, userIds.length); i += BATCH)
        calls.push(
          one({ templateIds: templateIds.slice(i, i + BATCH), userIds: userIds.slice(i, i + BATCH) }),
        );
      const results = await Promise.all(calls);
      return {
        templates: Object.assign({}, ...results.map((r) => r.templates)),
        users: Object.assign({}, ...results.map((r) => r.users)),
      };
    },
  };
}

export type EmailStatsReader = ReturnType<typeof createEmailStatsClient>;
