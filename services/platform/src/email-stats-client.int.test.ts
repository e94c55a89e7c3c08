import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmailStatsClient } from './email-stats-client';
import { createLogger } from './logger';
import { closeServer, listen } from './runtime';

const TOKEN = 't'.repeat(40);
let url = '';
let server: Awaited<ReturnType<typeof listen>>['server'];
let mode: 'ok' | 'slow' | 'error' = 'ok';
const bodies: unknown[] = [];
const warnings: unknown[] = [];
const log = createLogger('email-stats-client-test', 'silent');
log.warn = ((obj: unknown) => {
  warnings.push(obj);
}) as typeof log.warn;

beforeAll(async () => {
  const app = express();
  app.use(express.json());
  app.post('/internal/email-stats', async (req, res) => {
    bodies.push(req.body);
    if (req.header('x-internal-token') !== TOKEN) return void res.status(403).json({ status: false });
    if (mode === 'error') return void res.status(500).json({ status: false, message: 'boom' });
    if (mode === 'slow') await new Promise((r) => setTimeout(r, 300));
    const ids: string[] = req.body.userIds ?? [];
    res.json({
      status: true,
      templates: {},
      users: Object.fromEntries(
        ids
          .filter((id) => id !== 'absent')
          .map((id) => [
            id,
            {
              emails_sent: 2,
              emails_open: 1,
              email_open_rate: 50,
              last_email_open: null,
              last_app_login: null,
            },
          ]),
      ),
    });
  });
  ({ server, url } = await listen(app, 0));
});
afterAll(() => closeServer(server));

const client = (timeoutMs = 1_000) =>
  createEmailStatsClient({ reportingUrl: () => url, internalToken: TOKEN, log, timeoutMs });

describe('the e-mail stats client (auth and content merge its figures into the admin lists)', () => {
  it('asks in batches of at most 1000 ids and merges the answers; absent ids stay absent', async () => {
    mode = 'ok';
    bodies.length = 0;
    const ids = [...Array.from({ length: 1500 }, (_, i) => `u${i}`), 'absent'];
    const { users } = await client().read({ userIds: ids });
    expect(bodies).toHaveLength(2);
    expect(Object.keys(users)).toHaveLength(1500);
    expect(users.u1499).toMatchObject({ emails_sent: 2, email_open_rate: 50 });
    expect(users.absent).toBeUndefined();
  });

  it('gives no figures (zeros for the caller) and a warning when reporting is slow, failing or unknown', async () => {
    warnings.length = 0;
    mode = 'slow';
    expect(await client(100).read({ userIds: ['u1'] })).toEqual({ templates: {}, users: {} });
    mode = 'error';
    expect(await client().read({ userIds: ['u1'] })).toEqual({ templates: {}, users: {} });
    expect(warnings).toHaveLength(2);
    const unknown = createEmailStatsClient({ reportingUrl: () => undefined, internalToken: TOKEN, log });
    expect(await unknown.read({ userIds: ['u1'] })).toEqual({ templates: {}, users: {} });
  });
});
