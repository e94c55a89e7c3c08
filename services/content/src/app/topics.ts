import type { TopicView } from '@nudge/contracts';
import { conflict, newId, retryOnConflict, type ServiceEventStore } from '@nudge/platform';
import { decideAddTopic, isTopicNameTaken, TOPICS_STREAM, type TopicState } from '../domain/topic';
import type { ContentCollections } from '../events/collections';

const toView = (t: TopicState): TopicView => ({
  _id: t._id,
  topic: t.topic,
  default: t.default,
  createdAt: t.createdAt,
});

export function createTopics(deps: { c: ContentCollections; events: ServiceEventStore; clock: () => Date }) {
  const { c, events, clock } = deps;

  const all = () => c.topics.find({}, { sort: { createdAt: 1, _id: 1 } });

  return {
    async list(): Promise<TopicView[]> {
      return (await all()).map(toView);
    },
    async exists(topicId: string): Promise<boolean> {
      return (await c.topics.countDocuments({ _id: topicId })) > 0;
    },
    async add(input: { topic: string; default: boolean }, actor: string): Promise<TopicView> {
      // One stream holds every topic: a clash means someone added a topic meanwhile, so decide again.
      const topicId = await retryOnConflict(async () => {
        const version = (await c.topicsMeta.findOne({ _id: TOPICS_STREAM }))?.version ?? 0;
        if (isTopicNameTaken(await all(), input.topic))
          throw conflict(`A topic named '${input.topic.trim()}' already exists`);
        const id = newId(clock());
        await events.append(TOPICS_STREAM, version, decideAddTopic(input, { topicId: id, now: clock() }), {
          actor,
        });
        return id;
      });
      const added = await c.topics.findOne({ _id: topicId });
      if (!added) throw new Error(`topic ${topicId} missing after its append`);
      return toView(added);
    },
  };
}

export type Topics = ReturnType<typeof createTopics>;
