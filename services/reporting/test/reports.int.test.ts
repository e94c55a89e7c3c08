import { AuthEvents } from '@nudge/contracts';
import { newId } from '@nudge/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Envelope, toEventRow } from '../src/domain/rows';
import { type Harness, registeredData, startReporting, type TestUser } from './harness';

const LOGO_URL = 'https://cdn.example.com/logo.png';
const LOGO_DATA = 'data:image/png;base64,iVBORw0KGgo=';

let h: Harness;
let admin: TestUser;
let reader: TestUser;
let other: TestUser;
let monitored: TestUser;

beforeAll(async () => {
  h = await startReporting();
  admin = await h.user({ role: 'admin' });
  reader = await h.user();
  other = await h.user();
  monitored = await h.user();
});
afterAll(() => h?.close());

const add = (body: Record<string, unknown>, token = admin.token) => h.post('/api/report/add', body, token);

describe('POST /api/report/add', () => {
  it('creates a report: id lists trimmed, blanks dropped, duplicates removed; text or list', async () => {
    const res = await add({
      name: '  Team A ',
      logo: LOGO_URL,
      monitoredUsers: ` ${monitored.userId} , ,${monitored.userId},${reader.userId}`,
      accessUsers: [reader.userId, ` ${reader.userId} `, ''],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: true,
      message: 'Report Added Successfully',
      report: {
        name: 'Team A',
        logo: LOGO_URL,
        monitoredUsers: [monitored.userId, reader.userId],
        accessUsers: [reader.userId],
        status: true,
      },
    });
    expect(res.body.report._id).toMatch(/^[0-9a-f]{24}$/);
    const details = await h.get(`/api/report/details/${res.body.report._id}`, admin.token);
    expect(details.body).toEqual({ status: true, report: res.body.report });
  });

  it('takes an uploaded image as the logo', async () => {
    const res = await add({ name: 'Logo upload', logo: LOGO_DATA });
    expect(res.status).toBe(200);
    expect(res.body.report.logo).toBe(LOGO_DATA);
  });

  it('refuses a missing name or logo, a bad logo and unknown user ids, and records nothing', async () => {
    const before = (await h.get('/api/report?page=1&limit=100', admin.token)).body.total;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ logo: LOGO_URL }, /report name/],
      [{ name: 'x' }, /logo/],
      [{ name: 'x', logo: 'javascript:alert(1)' }, /uploaded image or an http/],
      [{ name: 'x', logo: LOGO_URL, monitoredUsers: 'nope1, nope2' }, /Unknown user ids: nope1, nope2/],
      [{ name: 'x', logo: LOGO_URL, accessUsers: [7] }, /user ids/],
    ];
    for (const [body, message] of cases) {
      const res = await add(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.status).toBe(false);
      expect(res.body.message).toMatch(message);
    }
    expect((await h.get('/api/report?page=1&limit=100', admin.token)).body.total).toBe(before);
  });

  it('is for admins only', async () => {
    expect((await add({ name: 'x', logo: LOGO_URL }, reader.token)).status).toBe(403);
    expect((await h.post('/api/report/add', { name: 'x', logo: LOGO_URL })).status).toBe(401);
  });
});

describe('PUT /api/report/update/:id, GET /api/report', () => {
  it('changes only the fields given, and lists reports (newest first) with a total', async () => {
    const created = (await add({ name: 'Before', logo: LOGO_URL, accessUsers: reader.userId })).body.report;
    const res = await h.put(
      `/api/report/update/${created._id}`,
      { name: 'After', status: false },
      admin.token,
    );
    expect(res.body).toMatchObject({
      status: true,
      message: 'Report updated successfully',
      report: { _id: created._id, name: 'After', status: false, accessUsers: [reader.userId] },
    });
    const list = await h.get('/api/report?page=1&limit=2', admin.token);
    expect(list.body.status).toBe(true);
    expect(list.body.total).toBeGreaterThanOrEqual(3);
    expect(list.body.data).toHaveLength(2);
    const all = await h.get('/api/report?page=1&limit=100', admin.token);
    expect(all.body.data.map((r: { _id: string }) => r._id)).toContain(created._id);
    expect((await h.get('/api/report?page=0', admin.token)).status).toBe(400);
    expect((await h.get('/api/report', reader.token)).status).toBe(403);
  });

  it('answers Invalid report id for a malformed or unknown id', async () => {
    for (const id of ['nope', '0123456789abcdef01234567']) {
      const res = await h.get(`/api/report/details/${id}`, admin.token);
      expect(res.body).toEqual({ status: false, message: 'Invalid report id' });
      expect((await h.put(`/api/report/update/${id}`, { name: 'x' }, admin.token)).body.message).toBe(
        'Invalid report id',
      );
    }
  });
});

describe('report viewer access', () => {
  it('admins and listed access users of an Active report; Access Denied for anyone else; hidden is admin-only', async () => {
    const report = (
      await add({
        name: 'Access',
        logo: LOGO_URL,
        monitoredUsers: [monitored.userId],
        accessUsers: [reader.userId],
      })
    ).body.report;
    const data = (token?: string, query = `view=monthly&id=${report._id}&page=1`) =>
      h.post(`/api/report/data?${query}`, {}, token);
    const download = (token?: string) => h.get(`/api/report/download?view=quarterly&id=${report._id}`, token);

    expect((await data(admin.token)).body.success).toBe(true);
    expect((await data(reader.token)).body).toMatchObject({ success: true, logo: LOGO_URL });
    expect((await download(reader.token)).body.status).toBe(true);
    expect((await download(reader.token)).headers.get('content-disposition')).toContain('report_data.csv');

    const denied = await data(other.token);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ status: false, message: 'Access Denied' });
    expect((await download(other.token)).body.message).toBe('Access Denied');
    expect((await data()).status).toBe(401);
    expect((await download()).status).toBe(401);

    await h.put(`/api/report/update/${report._id}`, { status: false }, admin.token);
    expect((await data(reader.token)).body.message).toBe('Access Denied');
    expect((await download(reader.token)).body.message).toBe('Access Denied');
    expect((await data(admin.token)).body.success).toBe(true);

    expect((await data(reader.token, 'view=monthly&id=nope')).body.message).toBe('Invalid report id');
    expect((await data(admin.token, 'view=monthly&id=0123456789abcdef01234567')).body.message).toBe(
      'Invalid report id',
    );
    const badView = await data(admin.token, `view=weekly&id=${report._id}`);
    expect(badView.status).toBe(400);
    expect(badView.body.message).toMatch(/view must be monthly or quarterly/);
    expect((await data(admin.token, `view=monthly&id=${report._id}&page=0`)).status).toBe(400);
    const beyond = await data(admin.token, `view=monthly&id=${report._id}&page=99`);
    expect(beyond.status).toBe(400);
    expect(beyond.body.message).toMatch(/page must be between 1 and/);
    // Far past the end (the fuzz's page 999981 of 58 quarters reached back before the engine's dates): a 400 too.
    for (const view of ['monthly', 'quarterly']) {
      const far = await data(admin.token, `view=${view}&id=${report._id}&page=999981&limit=58`);
      expect(far.status).toBe(400);
      expect(far.body.message).toMatch(/page must be between 1 and/);
    }
  });
});

describe('a report of 40,000 monitored users', () => {
  it('is created, checked against the registered users and read: the ids go to ClickHouse in statements a server takes', async () => {
    // 40,000 readers registered through auth's events, in one batch as the bus ingester writes them.
    const ids = Array.from({ length: 40_000 }, () => newId());
    await h.service.writer.write(
      ids.map((id) =>
        toEventRow(
          h.event(
            AuthEvents.UserRegistered,
            registeredData(id, `${id}@example.com`),
            '2026-11-02T10:00:00.000Z',
            `user-${id}`,
          ) as Envelope,
        ),
      ),
      'bus',
    );
    const added = await add({ name: 'Everyone', logo: LOGO_URL, monitoredUsers: ids });
    expect(added.status, JSON.stringify(added.body).slice(0, 300)).toBe(200);
    expect(added.body.report.monitoredUsers).toHaveLength(40_000);
    // One unknown id among them is still named.
    const refused = await add({ name: 'Nearly', logo: LOGO_URL, monitoredUsers: [...ids, 'nobody'] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/Unknown user id: nobody/);

    const data = await h.post(
      `/api/report/data?id=${added.body.report._id}&view=monthly&page=1`,
      {},
      admin.token,
    );
    expect(data.status, JSON.stringify(data.body).slice(0, 300)).toBe(200);
    expect(data.body.data[0]).toMatchObject({ uniquePeopleCount: 40_000 });
  }, 120_000);
});
