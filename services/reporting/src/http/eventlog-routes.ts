import { EventLogsQuery, intakeSchemaFor, type WebEventInput } from '@nudge/contracts';
import { parseBody, parseQuery, requireRole } from '@nudge/platform';
import { Router } from 'express';
import type { EventLog } from '../app/event-log';
import type { Intake } from '../app/intake';
import type { IntakeBudget } from '../app/intake-budget';

const eventsOf = (body: unknown): WebEventInput[] => {
  if (Array.isArray(body)) return body as WebEventInput[];
  if (body && typeof body === 'object' && 'events' in body)
    return (body as { events: WebEventInput[] }).events;
  const { token: _token, ...event } = body as WebEventInput & { token?: unknown };
  return [event];
};

/**
 * Web event intake (public; a valid token stamps the user; a caller without one spends its address's budget) and the
 * admin's event log.
 */
export function eventlogRoutes(deps: { intake: Intake; budget: IntakeBudget; log: EventLog }): Router {
  const router = Router();

  router.post('/api/eventlogs', async (req, res) => {
    const events = eventsOf(parseBody(intakeSchemaFor(req.body), req));
    const user = req.auth ? { userId: req.auth.userId, email: req.auth.email } : undefined;
    if (!user) await deps.budget.take(req.ip ?? 'unknown', events.length);
    const ids = await deps.intake.accept(user, events);
    res.json({ status: true, accepted: ids.length });
  });

  router.post('/api/eventlogs/logs', requireRole('admin'), async (req, res) => {
    const { page, limit, ...filter } = parseQuery(EventLogsQuery, req);
    res.json({ status: true, ...(await deps.log.page(page, limit, filter)) });
  });

  /** The whole log as EventLogs.csv, streamed (the admin app's "Download all"). */
  router.post('/api/eventlogs/alllogs', requireRole('admin'), async (_req, res) => {
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', 'attachment; filename="EventLogs.csv"');
    for await (const chunk of deps.log.csv()) {
      if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
    }
    res.end();
  });

  return router;
}
