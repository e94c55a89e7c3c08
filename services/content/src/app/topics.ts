import type { TopicView } from '@nudge/contracts';
import { handleCommand, newId, type ServiceEventStore } from '@nudge/platform';
import { TOPICS_STREAM, type TopicState, topicsDecider } from '../domain/topic';
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
      const topicId = newId(clock());
      await handleCommand(
        events,
        TOPICS_STREAM,
        topicsDecider,
        { ...input, topicId, now: clock() },
        { actor },
      );
      const added = await c.topics.findOne({ _id: topicId });
      if (!added) throw new Error(`topic ${topicId} missing after its append`);
      return toView(added);
    },
  };
}

export type Topics = ReturnType<typeof createTopics>;
