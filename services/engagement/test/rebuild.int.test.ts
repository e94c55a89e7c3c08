import { AuthEvents, ContentEvents } from '@nudge/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReadModels, ENGAGEMENT_READ_MODEL_COLLECTIONS } from '../src/events/read-models';
import { dump, type Harness, INTERNAL_TOKEN, sendOf, startEngagement } from './harness';

let h: Harness;
beforeEach(async () => {
  h = await startEngagement();
});
afterEach(async () => {
  await h.close();
});

const OWN_READ_MODELS = [...ENGAGEMENT_READ_MODEL_COLLECTIONS];
const CONSUMED_READ_MODELS = ['directory_users', 'posts', 'site_settings', 'reading_history'];

const dumpAll = async (names: string[]) =>
  Object.fromEntries(await Promise.all(names.map(async (n) => [n, await dump(h.store, n)] as const)));

/** A bit of everything engagement records, through its HTTP API. */
async function scenario() {
  const admin = await h.user({ role: 'admin' });
  const readers = [await h.user(), await h.user({ role: 'premium' })];
  const free = await h.addPost();
  const paid = await h.addPost({ type: 1 });
  for (const r of readers) {
    await h.post('/api/like/add', { token: r.token, templateid: free, status: true });
    await h.post('/api/like/add', { token: r.token, templateid: paid, status: true });
  }
  await h.post('/api/like/add', { token: readers[0]?.token, templateid: paid, status: false });
  const c1 = (
    await h.post('/api/comment/add', { token: readers[0]?.token, templateid: free, message: 'one' })
  ).body;
  const c2 = (
    await h.post('/api/comment/add', { token: readers[1]?.token, templateid: paid, message: 'two' })
  ).body;
  await h.post('/api/comment/edit', { token: readers[0]?.token, id: c1.comment._id, comment: 'one, edited' });
  await h.post('/api/comment/delete', { token: admin.token, id: c2.comment._id });
  const q = (await h.post('/api/checkin/add', { token: admin.token, body: 'How are you?', tags: ['a'] })).body
    .data;
  await h.post(`/api/checkin/update/${q._id}`, { token: admin.token, scale: 'reverse' });
  const issued = await fetch(`${h.url}/internal/checkin/issue`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-token': INTERNAL_TOKEN },
    body: JSON.stringify({ userId: readers[0]?.userId }),
  });
  const { qlid } = (await issued.json()) as { qlid: string };
  await h.post(`/api/checkin?qlid=${qlid}&a=2`);
  await fetch(`${h.url}/internal/checkin/issue`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-token': INTERNAL_TOKEN },
    body: JSON.stringify({ userId: readers[1]?.userId }),
  });
  await h.opened(readers[0]?.userId ?? '', free, 1, '2026-03-09T08:00:00.000Z');
  await h.opened(readers[0]?.userId ?? '', paid, 2, '2026-03-10T08:00:00.000Z');
  const sent = await fetch(`${h.url}/internal/reminders/sent`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-internal-token': INTERNAL_TOKEN },
    body: JSON.stringify({ sends: readers.map((r) => sendOf(r.userId, '2026-03-10')) }),
  });
  expect(sent.status).toBe(200);
  await h.updatePost(free, { heading: 'Renamed' });
  await h.setSettings({ isCommentsVisible: false });
  return { readers, free, paid };
}

describe('read models rebuild from engagement’s own events', () => {
  it('dropping and replaying gives the same state and the same answers', async () => {
    const { readers, free } = await scenario();
    const live = await dumpAll(OWN_READ_MODELS);
    expect(live.likes).toHaveLength(4);
    expect(live.comments).toHaveLength(2);
    expect(live.checkin_questions).toHaveLength(1);
    expect(live.checkins).toHaveLength(2);
    expect(live.reminder_sends).toHaveLength(2);
    const token = readers[1]?.token ?? '';
    const likedBefore = await h.post('/api/like/getalllikedpost?page=1&limit=5', { token });
    const commentsBefore = await h.get(`/api/comment/comments/${free}`);

    for (const name of OWN_READ_MODELS) await h.store.collection(name).drop();
    await h.events.rebuild();
    expect(await dumpAll(OWN_READ_MODELS)).toEqual(live);
    expect(await h.post('/api/like/getalllikedpost?page=1&limit=5', { token })).toMatchObject({
      body: likedBefore.body,
    });
    expect((await h.get(`/api/comment/comments/${free}`)).body).toEqual(commentsBefore.body);
  });

  it('applying every event a second time changes nothing (projections are idempotent)', async () => {
    await scenario();
    const live = await dumpAll(OWN_READ_MODELS);
    const again = createReadModels(h.store);
    for (const event of await h.ownEvents()) await again.apply(event);
    expect(await dumpAll(OWN_READ_MODELS)).toEqual(live);
  });
});

describe('auth’s and content’s events delivered again', () => {
  it('redelivering whole streams twice (past the consumer’s dedupe, and through the bus) changes nothing', async () => {
    const { readers } = await scenario();
    const before = await dumpAll(CONSUMED_READ_MODELS);
    const ownBefore = await dumpAll(OWN_READ_MODELS);
    expect(before.reading_history).toHaveLength(2);
    expect(before.posts).toHaveLength(2);
    const historyBefore = (await h.post('/api/history/getuserhistory', { token: readers[0]?.token })).body;

    const all = [...h.delivered.auth, ...h.delivered.content];
    for (let round = 0; round < 2; round++) {
      for (const event of all) await h.service.handlers[event.type]?.(event);
    }
    expect(await dumpAll(CONSUMED_READ_MODELS)).toEqual(before);

    await h.deliver('auth', [...h.delivered.auth]);
    await h.deliver('content', [...h.delivered.content]);
    expect(await dumpAll(CONSUMED_READ_MODELS)).toEqual(before);
    expect(await dumpAll(OWN_READ_MODELS)).toEqual(ownBefore);
    expect((await h.post('/api/history/getuserhistory', { token: readers[0]?.token })).body).toEqual(
      historyBefore,
    );
  });

  it('an older event arriving after a newer one is ignored', async () => {
    const reader = await h.user({ firstname: 'Old', timeZone: 'Europe/London' });
    const post = await h.addPost({ heading: 'v1' });
    await h.updatePost(post, { heading: 'v2' });
    await h.updatePost(post, { heading: 'v3', type: 1 });
    const [, v2] = h.delivered.content.filter((e) => e.stream === `template-${post}`);
    const rename = h.envelope(`user-${reader.userId}`, AuthEvents.ProfileUpdated.type, {
      userId: reader.userId,
      firstname: 'New',
    });
    await h.deliver('auth', [rename]);
    const stale = h.delivered.auth.find((e) => e.stream === `user-${reader.userId}` && e.version === 2);
    // Both lookups must find their event: a redelivery that silently did not happen would prove nothing.
    if (!v2) throw new Error('the post’s version-2 event was not delivered to engagement');
    if (!stale) throw new Error('the reader’s version-2 auth event was not delivered to engagement');
    expect(v2).toMatchObject({ version: 2, type: ContentEvents.TemplateUpdated.type });
    expect(stale.version).toBe(2);
    const onPost = h.service.handlers[v2.type];
    const onUser = h.service.handlers[stale.type];
    if (!onPost || !onUser) throw new Error(`engagement has no handler for ${v2.type} or ${stale.type}`);
    await onPost(v2);
    await onUser(stale);
    expect(await h.store.collection('posts').findOne({ _id: post })).toMatchObject({
      heading: 'v3',
      type: 1,
      version: 3,
    });
    expect(await h.service.directory.byId(reader.userId)).toMatchObject({ firstname: 'New' });
  });
});
