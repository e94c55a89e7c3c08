import {
  ContentEvents,
  WEB_EVENT_RETENTION_DAYS_DEFAULT,
  WEB_EVENT_RETENTION_DAYS_MAX,
} from '@nudge/contracts';
import type { DocumentStore, EventEnvelope, EventHandler, Logger } from '@nudge/platform';
import type { AnalyticsStore } from '../analytics';
import { WEB_ROW_TYPES } from '../domain/rows';

const RETENTION = 'web_event_retention';
type RetentionDoc = { _id: 'current'; days: number };

/** The retention a settings object names (content's stored settings: absent or invalid is the default). */
export function retentionDaysOf(settings: Record<string, unknown>): number {
  const days = settings.webeventretentiondays;
  return typeof days === 'number' &&
    Number.isInteger(days) &&
    days >= 1 &&
    days <= WEB_EVENT_RETENTION_DAYS_MAX
    ? days
    : WEB_EVENT_RETENTION_DAYS_DEFAULT;
}

/**
 * The retention of web telemetry (the admin's `webeventretentiondays` site setting, content's): a ClickHouse TTL on
 * the web rows of `events`, so the engine deletes the older ones (at once for what is there, then as it merges).
 * Reporting learns the setting from content's SiteSettingsUpdated events on the bus (the handler below, in a
 * consumer group of its own), keeps the last value in its document store and applies it again at each start.
 */
export function createWebRetention(deps: { analytics: AnalyticsStore; store: DocumentStore; log: Logger }) {
  const current = deps.store.collection<RetentionDoc>(RETENTION);
  const apply = (days: number) => {
    // A TTL is part of the table's definition: written as a literal, so the number is checked here.
    if (!Number.isInteger(days) || days < 1 || days > WEB_EVENT_RETENTION_DAYS_MAX)
      throw new Error(`not a retention in days: ${days}`);
    return deps.analytics.exec(
      `ALTER TABLE events MODIFY TTL toDateTime(occurred_at) + toIntervalDay(${days})
        WHERE type IN (${WEB_ROW_TYPES.map((t) => `'${t}'`).join(', ')})`,
    );
  };
  const set = async (days: number) => {
    const known = await current.findOne({ _id: 'current' });
    if (known?.days === days) return;
    await apply(days);
    await current.replaceOne({ _id: 'current' }, { _id: 'current', days }, { upsert: true });
    deps.log.info({ days }, 'reporting: web telemetry retention set');
  };
  const handlers: Record<string, EventHandler> = {
    [ContentEvents.SiteSettingsUpdated.type]: (event: EventEnvelope) =>
      set(retentionDaysOf((event.data as { settings: Record<string, unknown> }).settings)),
  };
  return {
    handlers,
    /** The retention in force (the default until the admin sets one). */
    days: async () => (await current.findOne({ _id: 'current' }))?.days ?? WEB_EVENT_RETENTION_DAYS_DEFAULT,
    /** Applies the retention in force (at start: a wiped or new analytics store gets it too). */
    async applyCurrent() {
      await apply((await current.findOne({ _id: 'current' }))?.days ?? WEB_EVENT_RETENTION_DAYS_DEFAULT);
    },
  };
}

export type WebRetention = ReturnType<typeof createWebRetention>;
