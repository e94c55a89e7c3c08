import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBuffer, type ZipFile } from 'yauzl';
import { type Standalone, startStandalone } from '../src/index';
import { gatewayClient, testStandaloneEnv } from './helpers';

let dataDir: string;
let app: Standalone;
const { call, ok, eventually, signIn } = gatewayClient(() => app);

/** The files of a zip, name to text, read with yauzl. */
function unzip(bytes: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    fromBuffer(bytes, { lazyEntries: true }, (err, zip?: ZipFile) => {
      if (err || !zip) return reject(err);
      const files = new Map<string, string>();
      zip.on('entry', (entry) => {
        zip.openReadStream(entry, (openErr, stream) => {
          if (openErr || !stream) return reject(openErr);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

async function exportOf(token: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(`${app.url}/api/user/export`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({}),
  });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'nudge-privacy-'));
  app = await startStandalone(testStandaloneEnv(dataDir));
});
afterAll(async () => {
  await app?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("the reader's data", () => {
  it('"Download my data" gives one zip holding every kind, from every service; the export is a recorded data request', async () => {
    const admin = await signIn('admin@example.com');
    await eventually(
      async () => (await call('GET', '/api/template/alltemplates', undefined, admin.token)).status === 200,
      'content to know the admin',
    );
    await ok('POST', '/api/topic/add', { topic: 'Sleep' }, admin.token);
    const topic = (await ok('GET', '/api/topic/getalltopics')).topics[0]._id as string;
    const post = (
      await ok(
        'POST',
        '/api/template/add',
        { heading: 'Breathe', body: 'In for four.', subject: '', subjects: [], topic, status: true, type: 0 },
        admin.token,
      )
    ).template._id as string;

    const reader = await signIn('exporter@example.com');
    await ok('POST', `/api/template/${post}`, { token: reader.token });
    await ok('POST', '/api/like/add', { templateid: post, status: true }, reader.token);
    await ok('POST', '/api/comment/add', { templateid: post, message: 'Helped me sleep.' }, reader.token);
    await ok(
      'POST',
      '/api/eventlogs',
      { eventType: 'page_visit', eventValue: '/post', metadata: { path: '/post' } },
      reader.token,
    );
    await eventually(
      async () => {
        const { bytes } = await exportOf(reader.token);
        const files = await unzip(bytes);
        return (
          JSON.parse(files.get('engagement/reading-history.json') ?? '[]').length > 0 &&
          JSON.parse(files.get('reporting/web-events.json') ?? '[]').length > 0
        );
      },
      'the read and the web event to reach engagement and reporting',
      20_000,
    );

    const started = performance.now();
    const res = await exportOf(reader.token);
    const ms = performance.now() - started;
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/zip');
    const files = await unzip(res.bytes);
    for (const name of [
      'auth/profile.json',
      'auth/sign-ins.json',
      'auth/sign-ins.csv',
      'auth/sessions-ended.json',
      'auth/account-history.json',
      'content/posts-opened.json',
      'engagement/likes.json',
      'engagement/likes.csv',
      'engagement/comments.json',
      'engagement/reading-history.json',
      'engagement/checkin-answers.json',
      'engagement/wellbeing-score.json',
      'engagement/reminders.json',
      'engagement/reminders.csv',
      'billing/subscriptions.json',
      'billing/payments.json',
      'billing/payments.csv',
      'reporting/web-events.json',
      'reporting/web-events.csv',
      'README.json',
    ])
      expect(files.has(name), name).toBe(true);
    const json = (name: string) => JSON.parse(files.get(name) as string) as Record<string, unknown>[];
    expect(json('auth/profile.json')[0]).toMatchObject({ email: 'exporter@example.com', firstname: 'Rae' });
    expect(json('auth/sign-ins.json').length).toBeGreaterThan(0);
    expect(json('engagement/likes.json')[0]).toMatchObject({ templateId: post });
    expect(json('engagement/comments.json')[0]).toMatchObject({ message: 'Helped me sleep.' });
    expect(json('reporting/web-events.json')[0]).toMatchObject({ type: 'page_visit', value: '/post' });
    expect(files.get('engagement/likes.csv')).toMatch(/^_id,userId,templateId/);
    // Nobody else's data: the admin's e-mail appears nowhere in the reader's archive.
    for (const text of files.values()) expect(text).not.toContain('admin@example.com');
    console.info(`export of a small history: ${Math.round(ms)} ms, ${res.bytes.length} bytes`);

    // Each export is recorded in the admin's register of data requests, answered at once, due a month later.
    const list = await ok('GET', '/api/datarequests', undefined, admin.token);
    const mine = list.data.filter((r: { email: string }) => r.email === 'exporter@example.com');
    expect(mine.length).toBeGreaterThan(0);
    expect(mine[0]).toMatchObject({ kind: 'export', channel: 'self-serve' });
    expect(mine[0].answeredAt).toBe(mine[0].receivedAt);

    // Signed out: no archive.
    expect((await call('POST', '/api/user/export', {})).status).toBe(401);
  });

  it('an admin records a request received by e-mail (due one calendar month later) and marks it answered', async () => {
    const admin = await signIn('admin@example.com');
    const reader = await signIn('mailer@example.com');
    const bad = await call(
      'POST',
      '/api/datarequests',
      { email: 'mailer@example.com', kind: 'forget', receivedAt: '2026-01-31' },
      admin.token,
    );
    expect(bad.status).toBe(400);
    expect(
      (
        await call(
          'POST',
          '/api/datarequests',
          { email: 'x@example.com', kind: 'export', receivedAt: '2026-01-31' },
          reader.token,
        )
      ).status,
    ).toBe(403);
    const { request } = await ok(
      'POST',
      '/api/datarequests',
      { email: 'mailer@example.com', kind: 'deletion', receivedAt: '2026-01-31', note: 'By e-mail' },
      admin.token,
    );
    expect(request).toMatchObject({
      kind: 'deletion',
      channel: 'email',
      userId: reader.id,
      receivedAt: '2026-01-31T00:00:00.000Z',
      dueAt: '2026-02-28T00:00:00.000Z',
      answeredAt: null,
    });
    const answered = await ok('POST', `/api/datarequests/${request._id}/answered`, {}, admin.token);
    expect(answered.request.answeredAt).not.toBeNull();
  });
});
