import { EngagementEvents } from '@nudge/contracts';
import { createEmbeddedStore } from '@nudge/platform';
import { until } from '@nudge/platform/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type ContentCollections, contentCollections } from '../src/events/collections';
import { engagementHandlers } from '../src/events/engagement-handlers';
import { envelope } from './harness';

// The bus hands the events of different streams to content's handlers at the same time: two readers liking one post
// change that post's counter together. A handler whose state read was answered before the other reader's like was
// counted must not leave a number that misses it.

const like = (userId: string, templateId: string) =>
  envelope(EngagementEvents.LikeSet.type, `like-${userId}-${templateId}`, 1, {
    userId,
    templateId,
    liked: true,
  });
const comment = (commentId: string, templateId: string) =>
  envelope(EngagementEvents.CommentAdded.type, `comment-${commentId}`, 1, {
    commentId,
    templateId,
    userId: 'u1',
    message: 'hello',
  });

/** The collections, with the result of the next state read of `name` held back until `release` (a slow store reply). */
function withHeldRead(c: ContentCollections, name: 'likes' | 'comments') {
  let holdNext = true;
  let read = false;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const target = c[name];
  const held = new Proxy(target, {
    get(obj, prop) {
      if (prop === 'findOne')
        return async (filter: Record<string, unknown>) => {
          const n = await obj.findOne(filter);
          if (holdNext) {
            holdNext = false;
            read = true;
            await released;
          }
          return n;
        };
      const value = Reflect.get(obj, prop, obj);
      return typeof value === 'function' ? value.bind(obj) : value;
    },
  });
  return { collections: { ...c, [name]: held }, release, read: () => read };
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

const cases = [
  {
    what: 'likes',
    collection: 'likes' as const,
    type: EngagementEvents.LikeSet.type,
    first: like('aaaaaaaaaaaaaaaaaaaaaaaa', 'post-1'),
    second: like('bbbbbbbbbbbbbbbbbbbbbbbb', 'post-1'),
    expected: { _id: 'post-1', totallikes: 2, totalcomments: 0 },
  },
  {
    what: 'comments',
    collection: 'comments' as const,
    type: EngagementEvents.CommentAdded.type,
    first: comment('c1', 'post-2'),
    second: comment('c2', 'post-2'),
    expected: { _id: 'post-2', totallikes: 0, totalcomments: 2 },
  },
];

describe("content's counters under per-key concurrency", () => {
  it.each(cases)(
    'two $what of one post handled at the same time count two, whatever order their writes land in',
    async ({ collection, type, first, second, expected }) => {
      const store = createEmbeddedStore();
      close = () => store.close();
      const c = contentCollections(store);
      const { collections, release, read } = withHeldRead(c, collection);
      const handle = engagementHandlers(collections)[type];
      // The first event's state is read and the reply is slow; the second is stored and counted meanwhile.
      const running = handle?.(first);
      await until(read, 'the held state read', 1_000, 2);
      await handle?.(second);
      release();
      await running;
      expect(await c.counters.findOne({ _id: expected._id })).toEqual(expected);
    },
  );
});
