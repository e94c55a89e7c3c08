import { ContentEvents } from '@nudge/contracts';
import { createEmbeddedStore } from '@nudge/platform';
import { afterEach, describe, expect, it } from 'vitest';
import { createFeedOrder } from '../src/app/feed-order';
import { contentCollections } from '../src/events/collections';
import { createTemplatesProjection } from '../src/events/templates-projection';
import { envelope } from './harness';

// Two content replicas on one document store (two pods on one MongoDB) each apply the change of a different post at
// the same moment: the feed must show both posts, whichever replica writes the order last.

const added = (templateId: string, createdAt: string) =>
  envelope(ContentEvents.TemplateAdded.type, `template-${templateId}`, 1, {
    templateId,
    heading: templateId,
    body: 'B',
    image: '',
    type: 0,
    topic: 't',
    status: true,
    subjects: [],
    createdAt,
  });

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('the feed order with two content replicas', () => {
  it('shows both posts when two replicas add one each at the same moment', async () => {
    const store = createEmbeddedStore();
    close = () => store.close();
    const c = contentCollections(store);
    // Replica A reads the order and its reply is slow; replica B adds its post to the order meanwhile.
    let held = true;
    let read = false;
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slowOrder = new Proxy(c.feedOrder, {
      get(obj, prop) {
        if (prop === 'findOne')
          return async (filter: Record<string, unknown>) => {
            const order = await obj.findOne(filter);
            if (held) {
              held = false;
              read = true;
              await released;
            }
            return order;
          };
        const value = Reflect.get(obj, prop, obj);
        return typeof value === 'function' ? value.bind(obj) : value;
      },
    });
    const replicaA = createTemplatesProjection({ ...c, feedOrder: slowOrder });
    const replicaB = createTemplatesProjection(c);
    await replicaB.apply(added('p0', '2026-01-01T00:00:00.000Z'));

    const a = replicaA.apply(added('p1', '2026-01-02T00:00:00.000Z'));
    for (let i = 0; i < 500 && !read; i++) await new Promise((resolve) => setTimeout(resolve, 2));
    expect(read).toBe(true);
    await replicaB.apply(added('p2', '2026-01-03T00:00:00.000Z'));
    release();
    await a;

    const feed = await createFeedOrder(c).active();
    expect(feed.map((p) => p.id)).toEqual(['p2', 'p1', 'p0']);
  });
});
