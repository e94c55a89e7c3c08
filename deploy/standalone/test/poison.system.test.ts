import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonCall } from '@nudge/platform/testing';
import { webEventRow } from '@nudge/reporting';
import { afterAll, describe, expect, it } from 'vitest';
import { type StandaloneProcess, spawnStandalone } from './standalone-process';

// Poison in the analytics pipeline, as `npm start` runs it: a web event whose text is not valid Unicode sent through
// the API, and poison lines written straight into reporting's spool, while the process runs and while it is down.
// SIGTERM and a start on the same data directory: the process comes up, the poisoned records are set aside (counted
// in /readyz), the events behind them reach the admin's event log.

let dataDir = '';
let running: StandaloneProcess | undefined;
afterAll(async () => {
  await running?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** An `events` row as the spool holds it (one JSON line, JSONEachRow). */
const spoolLine = (value: string) =>
  `${JSON.stringify(
    webEventRow(randomBytes(12).toString('hex'), '2026-01-15 03:17:00.000', undefined, {
      eventType: 'page_visit',
      eventValue: value,
    }),
  )}\n`;

describe('poison in the analytics pipeline, SIGTERM, start again', () => {
  it('the process comes back up; the poisoned records are set aside and counted; the events behind them are in the event log', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'nudge-poison-'));
    const env = {
      DATA_DIR: dataDir,
      ADMIN_EMAILS: 'admin@example.com',
      WEB_DIST: join(dataDir, 'no-web'),
      REMINDER_SCHEDULER: 'off',
      LOG_LEVEL: 'fatal',
    };
    running = await spawnStandalone(env);
    const call = (method: string, path: string, body?: unknown, token?: string) =>
      jsonCall((running as StandaloneProcess).url, method, path, body, token);

    // through the API: refused, nothing spooled
    const poisoned = await call('POST', '/api/eventlogs', {
      eventType: 'page_visit',
      eventValue: 'api\ud800',
    });
    expect(poisoned.status).toBe(400);
    expect(poisoned.body.message).toBe(
      'eventValue in the request body is not valid Unicode text (it holds a lone surrogate)',
    );
    expect(
      (await call('POST', '/api/eventlogs', { eventType: 'page_visit', eventValue: '/api-after' })).status,
    ).toBe(200);

    // straight into the spool while the process runs: a batch file with a poison line between two good ones
    const spool = join(dataDir, 'reporting', 'spool');
    await mkdir(spool, { recursive: true });
    await writeFile(
      join(spool, 'batch-0-poison.ndjson'),
      `${spoolLine('/running-before')}${spoolLine('running\udbff')}${spoolLine('/running-after')}`,
    );
    // SIGTERM: the process stops cleanly
    await running.stop();
    running = undefined;

    // and while it is down: a poison line and a line that is no JSON in the spool's current file, events behind them
    await appendFile(
      join(spool, 'current.ndjson'),
      `${spoolLine('down\udc00')}{"torn json"\n${spoolLine('/down-after-1')}${spoolLine('/down-after-2')}`,
    );

    running = await spawnStandalone(env);
    const ready = await fetch(`${running.url}/readyz`);
    expect(ready.status).toBe(200);

    // sign in as the admin (the code comes from the dev outbox) and read the event log once the spool is loaded
    expect((await call('POST', '/api/user/auth', { email: 'admin@example.com' })).status).toBe(200);
    const outbox = (await call('GET', '/api/dev/outbox')).body;
    const otp = outbox.messages
      .find((m: { to: string }) => m.to === 'admin@example.com')
      .text.match(/\b(\d{6})\b/)[1];
    const { token } = (await call('POST', '/api/user/verify', { email: 'admin@example.com', otp })).body;
    const expected = ['/api-after', '/running-before', '/running-after', '/down-after-1', '/down-after-2'];
    let values: string[] = [];
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const page = await call('POST', '/api/eventlogs/logs?page=1&limit=100', {}, token);
      values = page.body.data.map((r: { eventValue: string }) => r.eventValue);
      if (expected.every((v) => values.includes(v))) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(values).toEqual(expect.arrayContaining(expected));
    expect(values.filter((v) => /running|down|api/.test(v) && !v.startsWith('/'))).toEqual([]);
    expect(await readdir(spool)).not.toContain('batch-0-poison.ndjson');

    const detail = (await (await fetch(`${running.url}/readyz`)).json()).detail;
    expect(detail.reporting.setAside).toEqual({ total: 3, sources: { bus: 0, web: 3, backfill: 0 } });
  }, 240_000);
});
