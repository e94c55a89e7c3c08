import type { EmailStatsResponse } from '@nudge/contracts';
import { type AnalyticsStore, forIdChunks } from '../analytics';
import { percent } from '../domain/periods';

const SENT = 'engagement.ReminderSent.v1';
const OPENED = 'engagement.ReminderOpened.v1';
const SIGNED_IN = 'auth.UserSignedIn.v1';

const iso = (s: string | null | undefined) =>
  s && !s.startsWith('1970-01-01') ? new Date(`${s.replace(' ', 'T')}Z`).toISOString() : null;

/**
 * E-mail figures from the reminder facts: a send counts once per send id (channel 'email' only), an open once per
 * opened send id. Ids with no data are absent (callers read absence as zeros).
 */
export function createEmailStats(deps: { analytics: AnalyticsStore }) {
  const { analytics } = deps;

  const templates = async (ids: string[]) => {
    const out: EmailStatsResponse['templates'] = {};
    if (ids.length === 0) return out;
    const rows = await forIdChunks(ids, (chunk) =>
      analytics.query<{
        template_id: string;
        subject_id: string;
        sent: number;
        opened: number;
      }>(
        `SELECT template_id, subject_id,
         uniqExactIf(send_id, type = {sent:String}) AS sent, uniqExactIf(send_id, type = {opened:String}) AS opened
       FROM events
       WHERE type IN ({sent:String}, {opened:String}) AND channel = 'email' AND template_id IN {ids:Array(String)}
       GROUP BY template_id, subject_id`,
        { ids: chunk, sent: SENT, opened: OPENED },
      ),
    );
    for (const r of rows) {
      const t = out[r.template_id] ?? { emails_sent: 0, emails_open: 0, email_open_rate: 0, subjects: {} };
      out[r.template_id] = t;
      const sent = Number(r.sent);
      const opened = Number(r.opened);
      t.emails_sent += sent;
      t.emails_open += opened;
      if (r.subject_id)
        t.subjects[r.subject_id] = {
          emails_sent: sent,
          emails_open: opened,
          email_open_rate: percent(opened, sent),
        };
    }
    for (const t of Object.values(out)) t.email_open_rate = percent(t.emails_open, t.emails_sent);
    return out;
  };

  const users = async (ids: string[]) => {
    const out: EmailStatsResponse['users'] = {};
    if (ids.length === 0) return out;
    const rows = await forIdChunks(ids, (chunk) =>
      analytics.query<{
        user_id: string;
        sent: number;
        opened: number;
        last_open: string;
        last_login: string;
      }>(
        `SELECT user_id,
         uniqExactIf(send_id, type = {sent:String} AND channel = 'email') AS sent,
         uniqExactIf(send_id, type = {opened:String} AND channel = 'email') AS opened,
         toString(maxIf(occurred_at, type = {opened:String} AND channel = 'email')) AS last_open,
         toString(maxIf(occurred_at, type = {signedIn:String})) AS last_login
       FROM events
       WHERE type IN ({sent:String}, {opened:String}, {signedIn:String}) AND user_id IN {ids:Array(String)}
       GROUP BY user_id`,
        { ids: chunk, sent: SENT, opened: OPENED, signedIn: SIGNED_IN },
      ),
    );
    for (const r of rows) {
      const sent = Number(r.sent);
      const opened = Number(r.opened);
      out[r.user_id] = {
        emails_sent: sent,
        emails_open: opened,
        email_open_rate: percent(opened, sent),
        last_email_open: iso(r.last_open),
        last_app_login: iso(r.last_login),
      };
    }
    return out;
  };

  return {
    async read(req: { templateIds?: string[]; userIds?: string[] }): Promise<EmailStatsResponse> {
      const [t, u] = await Promise.all([
        templates([...new Set(req.templateIds ?? [])]),
        users([...new Set(req.userIds ?? [])]),
      ]);
      return { status: true, templates: t, users: u };
    },
  };
}

export type EmailStats = ReturnType<typeof createEmailStats>;
