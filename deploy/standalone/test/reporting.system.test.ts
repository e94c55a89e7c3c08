import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formulaStarts, HOSTILE_CSV_VALUES } from '@nudge/contracts/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Standalone, startStandalone } from '../src/index';
import { gatewayClient } from './helpers';

// A reader's activity reaches reporting (ClickHouse through chDB) in the standalone process: sign-in, read, like,
// check-in answer and a web event show in the admin's event log and in a report covering the reader.

let dataDir: string;
let app: Standalone;

const { call, ok, eventually, signIn } = gatewayClient(() => app);

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'nudge-reporting-system-'));
  app = await startStandalone({
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ADMIN_EMAILS: 'admin@example.com',
    WEB_DIST: join(dataDir, 'no-web'),
  });
});
afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('reporting in the standalone process', () => {
  it("a reader's sign-in, read, like and check-in answer show in the event log and a report within seconds", async () => {
    const admin = await signIn('admin@example.com');
    await eventually(
      async () => (await call('GET', '/api/template/alltemplates', undefined, admin.token)).status === 200,
      'content to know the admin',
    );
    await ok('POST', '/api/topic/add', { topic: 'Calm' }, admin.token);
    const topic = (await ok('GET', '/api/topic/getalltopics')).topics[0]._id as string;
    const post = (
      await ok(
        'POST',
        '/api/template/add',
        { heading: 'Breathe', body: 'Slowly.', subject: '', subjects: [], topic, status: true, type: 0 },
        admin.token,
      )
    ).template._id as string;
    await ok(
      'POST',
      '/api/checkin/add',
      { body: 'How calm are you?', scale: 'normal', order: 0, tags: [] },
      admin.token,
    );

    const reader = await signIn('reporting-reader@example.com');
    await ok('POST', `/api/template/${post}`, {}, reader.token);
    await ok('POST', '/api/like/add', { templateid: post, status: true }, reader.token);
    await ok('POST', '/api/eventlogs', {
      events: [{ eventType: 'page_visit', eventValue: '/' }],
      token: reader.token,
    });
    const internalToken = (
      await readFile(join(dataDir, 'keys', 'internal-service-token.secret'), 'utf8')
    ).trim();
    const issued = await fetch(`${app.serviceUrls.engagement}/internal/checkin/issue`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-internal-token': internalToken },
      body: JSON.stringify({ userId: reader.id }),
    }).then((res) => res.json());
    await ok('POST', `/api/checkin${new URL(issued.links[3].url).search}`);

    const started = Date.now();
    let types: string[] = [];
    await eventually(
      async () => {
        const log = await ok('POST', '/api/eventlogs/logs?page=1&limit=50', {}, admin.token);
        types = log.data
          .filter((r: { userId: string }) => r.userId === reader.id)
          .map((r: { eventType: string }) => r.eventType);
        return ['sign_in', 'post_read', 'like', 'page_visit', 'checkin_answer'].every((t) =>
          types.includes(t),
        );
      },
      'the event log to show the reader',
      15_000,
    );
    expect(Date.now() - started).toBeLessThan(10_000);

    // The report needs the reader in reporting's users (auth's events), which the log above proves.
    const report = (
      await ok(
        'POST',
        '/api/report/add',
        { name: 'Readers', logo: 'https://x.test/l.png', monitoredUsers: reader.id, accessUsers: reader.id },
        admin.token,
      )
    ).report;
    const viewed = await ok(
      'POST',
      `/api/report/data?view=monthly&id=${report._id}&page=1`,
      {},
      reader.token,
    );
    expect(viewed.success).toBe(true);
    expect(viewed.data[0]).toMatchObject({
      uniquePeopleCount: 1,
      activePeopleCount: 1,
      activePeoplePercentage: 100,
      questionsSent: 1,
      questionsAnswered: 1,
      responseRate: 100,
    });
    const other = await signIn('someone-else@example.com');
    const denied = await call(
      'POST',
      `/api/report/data?view=monthly&id=${report._id}&page=1`,
      {},
      other.token,
    );
    expect(denied.body).toEqual({ status: false, message: 'Access Denied' });
  });

  it('streams EventLogs.csv through the gateway with every formula trigger of a hostile value neutralised', async () => {
    const admin = await signIn('admin@example.com');
    const reader = await signIn('csv-reader@example.com');
    const events = HOSTILE_CSV_VALUES.map((eventValue) => ({ eventType: 'page_visit', eventValue }));
    await ok('POST', '/api/eventlogs', { events, token: reader.token });
    let csv = '';
    await eventually(
      async () => {
        const res = await call('POST', '/api/eventlogs/alllogs', {}, admin.token);
        csv = res.text;
        return res.headers.get('transfer-encoding') === 'chunked' && csv.includes('@SUM(A1)');
      },
      "the reader's events in EventLogs.csv",
      15_000,
    );
    expect(csv.startsWith('Id,User Id,User Email,Event Type,Event Value,Created On\r\n')).toBe(true);
    expect(csv).toContain(`,"x;'=cmd|' /C calc'!A0",`);
    expect(formulaStarts(csv)).toEqual([]);
  });
});
