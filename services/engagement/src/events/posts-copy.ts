import { ContentEvents, TemplateSnapshot } from '@nudge/contracts';
import type { DocumentStore, EventEnvelope, EventHandler } from '@nudge/platform';

/** Engagement's own copy of a post, kept from content's events (liked list, comment permission, existence). */
export interface PostDoc {
  _id: string;
  heading: string;
  body: string;
  image: string;
  type: 0 | 1;
  topic: string;
  /** true = active, false = paused. */
  status: boolean;
  createdAt: string;
  /** content's stream version last applied (older or repeated events are ignored). */
  version: number;
}

export interface PostsCopy {
  handlers: Record<string, EventHandler>;
  get(templateId: string): Promise<PostDoc | null>;
  byIds(templateIds: string[]): Promise<Map<string, PostDoc>>;
  /** Ids of paused posts (left out of the liked list). */
  pausedIds(): Promise<string[]>;
  ensureIndexes(): Promise<void>;
  reset(): Promise<void>;
}

export function createPostsCopy(store: DocumentStore): PostsCopy {
  const posts = store.collection<PostDoc>('posts');

  const onSnapshot = async (event: EventEnvelope) => {
    const data = TemplateSnapshot.parse(event.data);
    const current = await posts.findOne({ _id: data.templateId });
    if (current && current.version >= event.version) return;
    await posts.replaceOne(
      { _id: data.templateId },
      {
        _id: data.templateId,
        heading: data.heading,
        body: data.body,
        image: data.image,
        type: data.type,
        topic: data.topic,
        status: data.status,
        createdAt: data.createdAt,
        version: event.version,
      },
      { upsert: true },
    );
  };

  return {
    handlers: {
      [ContentEvents.TemplateAdded.type]: onSnapshot,
      [ContentEvents.TemplateUpdated.type]: onSnapshot,
    },
    get: (templateId) => posts.findOne({ _id: templateId }),
    async byIds(templateIds) {
      const found = templateIds.length ? await posts.find({ _id: { $in: [...new Set(templateIds)] } }) : [];
      return new Map(found.map((p) => [p._id, p]));
    },
    async pausedIds() {
      return (await posts.find({ status: false }, { projection: { _id: 1 } })).map((p) => p._id);
    },
    async ensureIndexes() {
      await posts.createIndex({ status: 1 });
    },
    reset: () => posts.drop(),
  };
}
