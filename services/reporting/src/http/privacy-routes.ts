import { requireInternal, userDataHandler } from '@nudge/platform';
import { Router } from 'express';
import type { AnalyticsStore } from '../analytics';
import { WEB_ROW_TYPES } from '../domain/rows';

type WebEventRow = { id: string; occurred_at: string; log_type: string; log_value: string; metadata: object };

/** The reader's data reporting holds about them alone: the web events (page visits, clicks) their browser sent. */
export function privacyRoutes(deps: { analytics: AnalyticsStore; internalToken: string }) {
  const router = Router();
  router.post(
    '/internal/privacy/user-data',
    requireInternal(deps.internalToken),
    userDataHandler(async (userId) => {
      const rows = await deps.analytics.query<WebEventRow>(
        `SELECT id, occurred_at, log_type, log_value, metadata FROM events FINAL
          WHERE user_id = {userId:String} AND type IN {types:Array(String)} ORDER BY occurred_at, id`,
        { userId, types: [...WEB_ROW_TYPES] },
      );
      return [
        {
          name: 'web-events',
          rows: rows.map((r) => ({
            id: r.id,
            at: r.occurred_at,
            type: r.log_type,
            value: r.log_value,
            metadata: r.metadata,
          })),
          csv: true,
        },
      ];
    }),
  );
  return router;
}
