import { internalPost } from '@nudge/platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AuthHarness, startAuth } from './harness';

// The zones readers are in: every reminder page walks the set, so a zone is stored under its one name (case variants
// of it are the same zone) and a zone no reader is in any more leaves the set.
let auth: AuthHarness;
beforeAll(async () => {
  auth = await startAuth();
});
afterAll(() => auth.close());

/** 08:00 in New York on that day (EST). */
const AT_0800_NEW_YORK = '2026-11-24T13:00:00.000Z';

const zoneSet = async () =>
  (await auth.store.collection('user_time_zones').find({}, { sort: { _id: 1 } })).map((z) => z._id);
const dueIds = async (at: string) =>
  (
    await internalPost(auth.url, '/internal/reminders/due', { at, limit: 500 }, auth.internalToken)
  ).body.readers.map((r: { userId: string }) => r.userId);

async function setZone(email: string, token: string, timeZone: string) {
  const res = await auth.post('/api/user/update', {
    email,
    token,
    info: { ageConfirmed: true, email, timeZone, notiinfo: { time: '08:00', active: true } },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.user;
}

describe('time zones', () => {
  it('a case variant of a zone is stored under the zone’s name, and the reader is due there', async () => {
    const { token, user } = await auth.signIn('variant@example.com');
    const updated = await setZone('variant@example.com', token, 'aMeRiCa/nEw_york');
    expect(updated.timeZone).toBe('America/New_York');
    expect(await zoneSet()).toEqual(['America/New_York']);
    expect(await dueIds(AT_0800_NEW_YORK)).toEqual([user._id]);
  });

  it('moving through many variants and zones leaves only the zones readers are in', async () => {
    const email = 'wanderer@example.com';
    const { token } = await auth.signIn(email);
    const variants = [
      'europe/paris',
      'EUROPE/PARIS',
      'Asia/TOKYO',
      'asia/tokyo',
      'australia/sydney',
      'eUrOpE/lOnDoN',
    ];
    for (const [i, zone] of variants.entries()) {
      await setZone(email, token, zone);
      if (i === 1) expect(await zoneSet()).toEqual(['America/New_York', 'Europe/Paris']);
    }
    expect(await zoneSet()).toEqual(['America/New_York', 'Europe/London']);
    // A zone that is no zone is refused and changes nothing.
    const bad = await auth.post('/api/user/update', {
      email,
      token,
      info: { ageConfirmed: true, email, timeZone: 'Mars/Olympus' },
    });
    expect(bad.status).toBe(400);
    expect(await zoneSet()).toEqual(['America/New_York', 'Europe/London']);
  });

  it('at start, zones stored before get their one name and the zones no reader is in leave the set', async () => {
    const { token, user } = await auth.signIn('older@example.com');
    await setZone('older@example.com', token, 'Europe/Berlin');
    // What a data directory from before holds: a reader under a case variant, and zones nobody is in.
    await auth.store
      .collection('users')
      .updateOne({ _id: user._id }, { $set: { timeZone: 'eUrOpE/bErLiN' } });
    for (const junk of ['eUrOpE/bErLiN', 'europe/BERLIN', 'Pacific/Auckland'])
      await auth.store
        .collection('user_time_zones')
        .updateOne({ _id: junk }, { $set: { seen: true } }, { upsert: true });

    // Auth starting again on that store.
    await auth.replica();

    expect(await zoneSet()).toEqual(['America/New_York', 'Europe/Berlin', 'Europe/London']);
    expect(
      (await auth.store.collection<{ _id: string; timeZone: string }>('users').findOne({ _id: user._id }))
        ?.timeZone,
    ).toBe('Europe/Berlin');
    // 08:00 in Berlin (CET).
    expect(await dueIds('2026-11-24T07:00:00.000Z')).toEqual([user._id]);
  });
});
