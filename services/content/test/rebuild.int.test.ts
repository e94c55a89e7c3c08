import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_READ_MODEL_COLLECTIONS } from '../src/events/read-models';
import { addPost, addTopic, type ContentHarness, pngDataUrl, startContent } from './harness';

describe('content read models are projections of the event store', () => {
  let h: ContentHarness;
  beforeAll(async () => {
    h = await startContent();
    const sleep = await addTopic(h, 'Sleep', true);
    const food = await addTopic(h, 'Food');
    await addTopic(h, 'Calm', true);
    const image = await pngDataUrl(60, 40);
    const posts = [];
    for (let i = 0; i < 7; i++)
      posts.push(
        await addPost(h, {
          topic: i % 2 ? sleep : food,
          type: i % 3 === 0 ? 1 : 0,
          image,
          subjects: [`S${i}`],
        }),
      );
    await h.post(
      `/api/template/update/${posts[0]._id}`,
      { info: { topic: sleep, status: false } },
      h.admin.token,
    );
    await h.post(
      `/api/template/update/${posts[1]._id}`,
      { info: { heading: 'Edited', subjects: ['A', 'B'] } },
      h.admin.token,
    );
    const reader = await h.user('premium');
    for (const p of posts.slice(1, 4)) await h.post(`/api/template/${p._id}`, {}, reader.token);
    await h.post('/api/logs/gettodaypost', { event: 'continue_reading' }, reader.token);
    const promo = (await h.post('/api/promotion/add', { heading: 'P', expires: '2030-01-01' }, h.admin.token))
      .body.promotion;
    await h.post(`/api/promotion/update/${promo._id}`, { info: { status: false } }, h.admin.token);
    await h.post('/api/promotion/add', { heading: 'Q', image }, h.admin.token);
    await h.put(
      '/api/sitesettings/update',
      { settings: { sitetitle: 'One', levels: [{ title: 'Z', count: 3 }] } },
      h.admin.token,
    );
    await h.put(
      '/api/sitesettings/update',
      { settings: { sitetitle: null, postplural: 'nudges' } },
      h.admin.token,
    );
  });
  afterAll(() => h.close());

  const snapshot = async () => {
    const state: Record<string, unknown[]> = {};
    for (const name of CONTENT_READ_MODEL_COLLECTIONS)
      state[name] = await h.store.collection(name).find({}, { sort: { _id: 1 } });
    return state;
  };
  const apiViews = async () => ({
    feed: (await h.post('/api/logs/getallpost?limit=50', {})).body,
    admin: (await h.get('/api/template/allsubjecttemplates', h.admin.token)).body,
    topics: (await h.get('/api/topic/getalltopics')).body,
    promotions: (await h.get('/api/promotion/all', h.admin.token)).body,
    settings: (await h.get('/api/sitesettings/fetch')).body,
  });

  it('dropping every read model and rebuilding gives the same state and the same answers', async () => {
    const live = await snapshot();
    const answers = await apiViews();
    expect(live.templates).toHaveLength(7);
    expect(live.post_reads).toHaveLength(4);
    expect(live.topics!.filter((t: any) => t.default)).toHaveLength(1);

    for (const name of CONTENT_READ_MODEL_COLLECTIONS) await h.store.collection(name).drop();
    expect((await h.get('/api/topic/getalltopics')).body.topics).toEqual([]);
    await h.events.rebuild();
    expect(await snapshot()).toEqual(live);
    expect(await apiViews()).toEqual(answers);
  });

  it('a new start catches up and serves the same', async () => {
    const before = await snapshot();
    await h.events.rebuild('content.read-models');
    await h.events.catchUp();
    expect(await snapshot()).toEqual(before);
  });
});
