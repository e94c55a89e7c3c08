import { AuthEvents, EngagementEvents } from '@nudge/contracts';
import {
  createConsumer,
  createEmbeddedStore,
  createEventBus,
  createLogger,
  type EventEnvelope,
  toBusMessage,
  topicFor,
} from '@nudge/platform';
import { afterEach, describe, expect, it } from 'vitest';
import { addPost, addTopic, type ContentHarness, envelope, startContent } from './harness';

const like = (userId: string, templateId: string, liked: boolean, version: number) =>
  envelope(EngagementEvents.LikeSet.type, `like-${userId}-${templateId}`, version, {
    userId,
    templateId,
    liked,
  });
const comment = (commentId: string, templateId: string, userId: string) =>
  envelope(EngagementEvents.CommentAdded.type, `comment-${commentId}`, 1, {
    commentId,
    templateId,
    userId,
    message: 'hello',
  });
const edited = (commentId: string, templateId: string, userId: string) =>
  envelope(EngagementEvents.CommentEdited.type, `comment-${commentId}`, 2, {
    commentId,
    templateId,
    userId,
    message: 'edited',
  });
const deleted = (commentId: string, templateId: string, userId: string, version = 2) =>
  envelope(EngagementEvents.CommentDeleted.type, `comment-${commentId}`, version, {
    commentId,
    templateId,
    userId,
    by: userId,
  });

/** What content shows of engagement: counters per post and every like state. */
async function engagementState(h: ContentHarness) {
  const counters = await h.store.collection('template_counters').find({}, { sort: { _id: 1 } });
  const likes = (await h.store.collection('like_states').find({}, { sort: { _id: 1 } })).map((l: any) => ({
    _id: l._id,
    liked: l.liked,
  }));
  return { counters, likes };
}

describe('consumers of engagement’s and auth’s events', () => {
  let hs: ContentHarness[] = [];
  afterEach(async () => {
    for (const h of hs) await h.close();
    hs = [];
  });
  const start = async () => {
    const h = await startContent();
    hs.push(h);
    return h;
  };

  async function scenario(h: ContentHarness) {
    const topic = await addTopic(h, 'T');
    const p1 = (await addPost(h, { topic, heading: 'one' }))._id;
    const p2 = (await addPost(h, { topic, heading: 'two' }))._id;
    const [a, b, c] = ['u-a', 'u-b', 'u-c'];
    const stream: EventEnvelope[] = [
      like(a, p1, true, 1),
      like(b, p1, true, 1),
      like(c, p1, true, 1),
      like(a, p1, false, 2),
      like(a, p1, true, 3),
      like(b, p1, false, 2),
      like(a, p2, true, 1),
      comment('c1', p1, a),
      comment('c2', p1, b),
      comment('c3', p2, c),
      edited('c1', p1, a),
      deleted('c2', p1, b),
    ];
    return { p1, p2, stream };
  }

  it('ends in the same state when the whole stream is delivered twice (and like counts are states, not $inc)', async () => {
    const once = await start();
    const { p1, p2, stream } = await scenario(once);
    for (const e of stream) await once.deliver(e);
    const expected = await engagementState(once);
    expect(expected.counters).toEqual(
      [
        { _id: p1, totallikes: 2, totalcomments: 1 },
        { _id: p2, totallikes: 1, totalcomments: 1 },
      ].sort((x, y) => x._id.localeCompare(y._id)),
    );

    const twice = await start();
    const again = await scenario(twice);
    // The same events (same ids, streams, versions) for this service's own post ids.
    const remap = (e: EventEnvelope): EventEnvelope => {
      const json = JSON.stringify(e).replaceAll(p1, again.p1).replaceAll(p2, again.p2);
      return JSON.parse(json);
    };
    for (const e of [...stream, ...stream].map(remap)) await twice.deliver(e);
    const state = await engagementState(twice);
    // Post ids differ between the two services: name them P1/P2, then order by the names.
    const normalise = (s: typeof expected, ids: [string, string]) => {
      const named = JSON.parse(JSON.stringify(s).replaceAll(ids[0], 'P1').replaceAll(ids[1], 'P2'));
      const byId = (a: { _id: string }, b: { _id: string }) => a._id.localeCompare(b._id);
      return { counters: named.counters.sort(byId), likes: named.likes.sort(byId) };
    };
    expect(normalise(state, [again.p1, again.p2])).toEqual(normalise(expected, [p1, p2]));

    // And the feed says the same.
    const feed = (await twice.post('/api/logs/getallpost', {})).body.templates;
    expect(feed.find((t: any) => t._id === again.p1)).toMatchObject({ totallikes: 2, totalcomments: 1 });
  });

  it('ignores an older like state redelivered after a newer one', async () => {
    const h = await start();
    const topic = await addTopic(h, 'T');
    const post = (await addPost(h, { topic }))._id;
    const reader = await h.user('user');
    const on = like(reader.userId, post, true, 1);
    const off = like(reader.userId, post, false, 2);
    await h.deliver(on);
    await h.deliver(off);
    await h.deliver(on);
    const reply = await h.post('/api/logs/getallpost', {}, reader.token);
    expect(reply.body.templates[0]).toMatchObject({ totallikes: 0, like: false });
  });

  it('keeps a comment deleted when its add arrives again (or late)', async () => {
    const h = await start();
    const topic = await addTopic(h, 'T');
    const post = (await addPost(h, { topic }))._id;
    await h.deliver(deleted('late', post, 'u1'));
    await h.deliver(comment('late', post, 'u1'));
    await h.deliver(comment('kept', post, 'u1'));
    await h.deliver(comment('kept', post, 'u1'));
    const reply = await h.post(`/api/template/${post}`, {});
    expect(reply.body.template.totalcomments).toBe(1);
  });

  it('consumes both topics through the bus with group content, deduplicating redelivered events', async () => {
    const h = await start();
    const topic = await addTopic(h, 'T');
    const post = (await addPost(h, { topic, type: 1, body: 'premium body' }))._id;
    const busStore = createEmbeddedStore({});
    const log = createLogger('bus-test', 'silent');
    const bus = createEventBus({ kind: 'inprocess', store: busStore, clientId: 'test', log });
    const consumer = createConsumer({
      store: h.store,
      bus,
      groupId: 'content',
      topics: [topicFor('auth'), topicFor('engagement')],
      handlers: h.service.handlers,
      log,
    });
    try {
      await consumer.start();
      const reader = await h.user('user');
      const registered = envelope(AuthEvents.RoleChanged.type, `user-${reader.userId}`, 2, {
        userId: reader.userId,
        from: 'user',
        to: 'premium',
        reason: 'billing',
      });
      const liked = like(reader.userId, post, true, 1);
      const first = comment('bus-c1', post, reader.userId);
      const publish = (topicName: string, e: EventEnvelope) => bus.publish([toBusMessage(topicName, e)]);
      await publish(topicFor('auth'), registered);
      await publish(topicFor('engagement'), liked);
      await publish(topicFor('engagement'), first);
      // At-least-once: the same events again, then one more so we know the duplicates were handled.
      await publish(topicFor('engagement'), liked);
      await publish(topicFor('engagement'), first);
      await publish(topicFor('engagement'), comment('bus-c2', post, reader.userId));

      const deadline = Date.now() + 5_000;
      let template: any;
      for (;;) {
        template = (await h.post(`/api/template/${post}`, {}, reader.token)).body.template;
        if (template.totalcomments === 2 && template.body) break;
        if (Date.now() > deadline) throw new Error(`consumer did not catch up: ${JSON.stringify(template)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // The role change arrived through auth's topic: the premium body is now readable.
      expect(template).toMatchObject({ totallikes: 1, totalcomments: 2, like: true, body: 'premium body' });
      const processed = await h.store.collection('processed_events').countDocuments({});
      expect(processed).toBe(4);
    } finally {
      await consumer.stop();
      await bus.close();
      await busStore.close();
    }
  });
});
