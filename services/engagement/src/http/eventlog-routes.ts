import { EventLogRequest } from '@nudge/contracts';
import { parseBody } from '@nudge/platform';
import { Router } from 'express';
import type { EventIntake } from '../app/event-intake';

/** Public: a valid token attaches the user; a missing or invalid one is not a refusal (authenticate never refuses). */
export function eventlogRoutes(deps: { intake: EventIntake }): Router {
  const router = Router();
  router.post('/api/eventlogs', async (req, res) => {
    const { eventType, eventValue, metadata } = parseBody(EventLogRequest, req);
    await deps.intake.record(req.auth, { eventType, eventValue, metadata });
    res.json({ status: true });
  });
  return router;
}
