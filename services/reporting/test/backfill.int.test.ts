import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuthEvents, EngagementEvents } from '@nudge/contracts';
import {
  closeServer,
  createEmbeddedStore,
  createEventStore,
  createHttpApp,
  type DirectoryUser,
  eventHistoryHandler,
  finishApp,
  listen,
  newId,
  requireInternal,
} from '@nudge/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsStore, migrate, openChdbStore } from '../src/analytics';
import { createEventLog } from '../src/app/event-log';
import { createSetAside } from '../src/app/set-aside';
import { createBackfill } from '../src/events/backfill';
import { createEventWriter } from '../src/events/ingest';
import { INTERNAL_TOKEN, log, registeredData } from './harness';

let dir: string;
let analytics: AnalyticsStore;
const setAsideStore = createEmbeddedStore({});
const setAside = createSetAside(setAsideStore);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nudge-backfill-'));
  analytics = await openChdbStore(join(dir, 'ch'));
  await migrate(analytics);
});
afterAll(async () => {
  await setAsideStore.close();
  await analytics?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A service's real event store behind platform's history handler, as every service mounts it. */
async function serviceWithHistory(service: string) {
  const store = createEmbeddedStore({});
  const events = createEventStore({ store, service, log });
  const app = createHttpApp({ log, bodyLimit: '100kb' });
  app.get('/internal/events', requireInternal(INTERNAL_TOKEN), eventHistoryHandler(store));
  finishApp(app, log);
  const { server, url } = await listen(app, 0);
  return { events, url, close: () => closeServer(server) };
}

describe('backfill from the services event histories', () => {
  it('fills a new store in commit order, turns old WebEvents into log rows, and a second run doubles nothing', async () => {
    const auth = await serviceWithHistory('auth');
    const engagement = await serviceWithHistory('engagement');
    const userId = newId();
    await auth.events.append(`user-${userId}`, 0, [
      {
        type: AuthEvents.UserRegistered.type,
        data: AuthEvents.UserRegistered.data.parse(registeredData(userId, 'old@example.com')),
      },
    ]);
    // 2,500 web events recorded by engagement before intake moved to reporting (more than one history page).
    for (let i = 0; i < 2_500; i++) {
      await engagement.events.append(`webevent-${newId()}`, 0, [
        {
          type: EngagementEvents.WebEvent.type,
          data: EngagementEvents.WebEvent.data.parse({
            userId,
            userEmail: 'old@example.com',
            eventType: 'page_visit',
            eventValue: `/old/${i}`,
            metadata: {},
            receivedAt: '2026-03-01T10:00:00.000Z',
          }),
        },
      ]);
    }
    // content and billing are not known here: run() keeps waiting for them, so each run is stopped at the end.
    const runs: ReturnType<typeof createBackfill>[] = [];
    const run = () => {
      const backfill = createBackfill({
        analytics,
        writer: createEventWriter({ analytics, setAside, log }),
        serviceUrls: { auth: auth.url, engagement: engagement.url },
        internalToken: INTERNAL_TOKEN,
        log,
      });
      runs.push(backfill);
      void backfill.run();
    };
    run();
    // The log shows each reader's current address from reporting's user directory (the rows hold none).
    const directory = {
      byEmail: async () => null,
      byIds: async (ids: string[]) =>
        new Map(ids.map((id) => [id, { _id: id, email: 'old@example.com' } as DirectoryUser])),
    };
    const eventLog = createEventLog({ analytics, directory });
    const deadline = Date.now() + 8_000;
    while ((await eventLog.page(1, 1)).total < 2_501 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    const page = await eventLog.page(1, 3);
    expect(page.total).toBe(2_501);
    expect(page.data[0]).toMatchObject({ userId, userEmail: 'old@example.com', eventType: 'sign_up' });
    expect(page.data[1]).toMatchObject({
      userId,
      userEmail: 'old@example.com',
      eventType: 'page_visit',
      createdAt: '2026-03-01T10:00:00.000Z',
    });
    const cursors = await analytics.query<{ service: string; done: boolean }>(
      'SELECT service, done FROM backfill_cursors FINAL ORDER BY service',
    );
    expect(cursors).toEqual([
      { service: 'auth', done: true },
      { service: 'engagement', done: true },
    ]);
    // Wiping the cursors (as a wiped store would) and reading again doubles nothing.
    await analytics.exec('TRUNCATE TABLE backfill_cursors');
    run();
    const done = async () =>
      (await analytics.query<{ n: number }>('SELECT count() AS n FROM backfill_cursors FINAL WHERE done'))[0]
        ?.n;
    while (Number(await done()) < 2 && Date.now() < deadline + 8_000)
      await new Promise((r) => setTimeout(r, 50));
    expect(Number(await done())).toBe(2);
    expect((await eventLog.page(1, 1)).total).toBe(2_501);
    for (const backfill of runs) backfill.stop();
    await auth.close();
    await engagement.close();
  }, 30_000);

  it('a history event that can never be stored is set aside; the events behind it go in and the backfill ends', async () => {
    await analytics.exec('TRUNCATE TABLE backfill_cursors');
    const engagement = await serviceWithHistory('engagement');
    const web = (value: string) => ({
      type: EngagementEvents.WebEvent.type,
      data: EngagementEvents.WebEvent.data.parse({
        userId: null,
        userEmail: null,
        eventType: 'page_visit',
        eventValue: value,
        metadata: {},
        receivedAt: '2026-03-02T10:00:00.000Z',
      }),
    });
    const stream = `webevent-${newId()}`;
    await engagement.events.append(stream, 0, [web('/poison-before'), web('x\ud800'), web('/poison-after')]);
    const backfill = createBackfill({
      analytics,
      writer: createEventWriter({ analytics, setAside, log }),
      serviceUrls: { engagement: engagement.url },
      internalToken: INTERNAL_TOKEN,
      log,
    });
    void backfill.run();
    const done = async () =>
      (
        await analytics.query<{ n: number }>(
          "SELECT count() AS n FROM backfill_cursors FINAL WHERE service = 'engagement' AND done",
        )
      )[0]?.n;
    const deadline = Date.now() + 10_000;
    while (Number(await done()) < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    backfill.stop();
    expect(Number(await done())).toBe(1);
    const values = await analytics.query<{ v: string }>(
      'SELECT log_value AS v FROM events WHERE stream = {stream:String} ORDER BY v',
      { stream },
    );
    expect(values.map((r) => r.v)).toEqual(['/poison-after', '/poison-before']);
    const [doc] = await setAside.list('backfill');
    expect(doc?.error).toBe('log_value in the row is not valid Unicode text (it holds a lone surrogate)');
    expect((await setAside.counts()).sources.backfill).toBe(1);
    await engagement.close();
  }, 30_000);

  it('the history read refuses callers without the internal credential and bad cursors', async () => {
    const svc = await serviceWithHistory('content');
    expect((await fetch(`${svc.url}/internal/events`)).status).toBe(403);
    const bad = await fetch(`${svc.url}/internal/events?after=-1`, {
      headers: { 'x-internal-token': INTERNAL_TOKEN },
    });
    expect(bad.status).toBe(400);
    const empty = await fetch(`${svc.url}/internal/events`, {
      headers: { 'x-internal-token': INTERNAL_TOKEN },
    });
    expect(await empty.json()).toEqual({ status: true, events: [], next: 0, done: true });
    await svc.close();
  });
});
