import { ContentEvents, WEB_EVENT_RETENTION_DAYS_DEFAULT } from '@nudge/contracts';
import { newId } from '@nudge/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chTime, type EventRow, webEventRow } from '../src/domain/rows';
import { type Harness, startReporting, waitFor } from './harness';

// The web telemetry's retention: the admin's `webeventretentiondays` site setting (content's), learnt from content's
// settings events on the bus, is a ClickHouse TTL on the web rows of `events`; the readers' domain activity stays.

let h: Harness;
beforeAll(async () => {
  h = await startReporting();
});
afterAll(() => h?.close());

const DAY = 86_400_000;
/** A row `daysAgo` days old by the engine's clock (the TTL counts from the real now, not the harness's). */
const row = (type: string, daysAgo: number): EventRow => ({
  ...webEventRow(newId(), chTime(new Date(Date.now() - daysAgo * DAY)), undefined, {
    eventType: type === 'auth.UserSignedIn.v1' ? 'sign_in' : 'page_visit',
    eventValue: `${type}:${daysAgo}`,
  }),
  type,
});

const ttl = async () =>
  (
    await h.analytics.query<{ engine_full: string }>(
      "SELECT engine_full FROM system.tables WHERE database = currentDatabase() AND name = 'events'",
    )
  )[0]?.engine_full ?? '';
const present = async (rows: EventRow[]) => {
  await h.analytics.exec('OPTIMIZE TABLE events FINAL');
  const found = await h.analytics.query<{ id: string }>(
    'SELECT id FROM events WHERE id IN {ids:Array(String)}',
    {
      ids: rows.map((r) => r.id),
    },
  );
  const ids = new Set(found.map((r) => r.id));
  return rows.filter((r) => ids.has(r.id)).map((r) => r.log_value);
};
const settingsChanged = (settings: Record<string, unknown>) =>
  h.publish('content', [
    h.event(ContentEvents.SiteSettingsUpdated, { settings }, new Date().toISOString(), 'sitesettings'),
  ]);

describe('web telemetry retention', () => {
  it('keeps web events for the default retention from the start; domain activity is never expired', async () => {
    await waitFor(
      async () => (await ttl()).includes(`toIntervalDay(${WEB_EVENT_RETENTION_DAYS_DEFAULT})`),
      'the TTL',
    );
    expect(await ttl()).toMatch(/WHERE type IN \('reporting\.WebEvent', 'engagement\.WebEvent\.v1'\)/);
    const rows = [
      row('reporting.WebEvent', WEB_EVENT_RETENTION_DAYS_DEFAULT + 30),
      row('engagement.WebEvent.v1', WEB_EVENT_RETENTION_DAYS_DEFAULT + 30),
      row('reporting.WebEvent', 100),
      row('auth.UserSignedIn.v1', WEB_EVENT_RETENTION_DAYS_DEFAULT + 30),
    ];
    await h.service.writer.write(rows, 'web');
    expect(await present(rows)).toEqual([
      'reporting.WebEvent:100',
      `auth.UserSignedIn.v1:${WEB_EVENT_RETENTION_DAYS_DEFAULT + 30}`,
    ]);
  });

  it('follows the admin’s setting from content’s settings events: shorter deletes what is older at once; unset is the default again', async () => {
    const rows = [
      row('reporting.WebEvent', 40),
      row('reporting.WebEvent', 10),
      row('auth.UserSignedIn.v1', 40),
    ];
    await h.service.writer.write(rows, 'web');
    await settingsChanged({ sitetitle: 'Calm', webeventretentiondays: 30 });
    expect(await ttl()).toContain('toIntervalDay(30)');
    expect(await h.service.retention.days()).toBe(30);
    expect(await present(rows)).toEqual(['reporting.WebEvent:10', 'auth.UserSignedIn.v1:40']);
    // another setting changes: the retention stays
    await settingsChanged({ sitetitle: 'Calmer', webeventretentiondays: 30 });
    expect(await ttl()).toContain('toIntervalDay(30)');
    // the setting removed (back to its default)
    await settingsChanged({ sitetitle: 'Calmer' });
    expect(await ttl()).toContain(`toIntervalDay(${WEB_EVENT_RETENTION_DAYS_DEFAULT})`);
    expect(await h.service.retention.days()).toBe(WEB_EVENT_RETENTION_DAYS_DEFAULT);
  });
});
