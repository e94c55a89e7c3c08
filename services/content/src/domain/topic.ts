import { ContentEvents, eventData } from '@nudge/contracts';
import { conflict, type DecidedEvent, type Decider } from '@nudge/platform';

export interface TopicState {
  _id: string;
  topic: string;
  /** The name as compared for uniqueness: trimmed, inner spaces collapsed, lower case. */
  key: string;
  default: boolean;
  createdAt: string;
}

/** Every topic is in one stream, so a unique name and a single default are decided against one version. */
export const TOPICS_STREAM = 'topics';

export const topicKey = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();

export const isTopicNameTaken = (topics: readonly TopicState[], name: string) =>
  topics.some((t) => t.key === topicKey(name));

export function decideAddTopic(
  input: { topic: string; default: boolean },
  ctx: { topicId: string; now: Date },
): DecidedEvent[] {
  return [
    {
      type: ContentEvents.TopicAdded.type,
      data: {
        topicId: ctx.topicId,
        topic: input.topic.trim().replace(/\s+/g, ' '),
        default: input.default,
        createdAt: ctx.now.toISOString(),
      },
    },
  ];
}

export interface AddTopic {
  topicId: string;
  topic: string;
  default: boolean;
  now: Date;
}

/** The topics stream folds to the names taken (compared by topicKey); a name taken already is refused (409). */
export const topicsDecider: Decider<TopicState[], AddTopic> = {
  initialState: [],
  evolve: (topics, event) => {
    if (event.type !== ContentEvents.TopicAdded.type) return topics;
    const d = eventData(ContentEvents.TopicAdded, event);
    return [
      ...topics,
      { _id: d.topicId, topic: d.topic, key: topicKey(d.topic), default: d.default, createdAt: d.createdAt },
    ];
  },
  decide: (cmd, topics) => {
    if (isTopicNameTaken(topics, cmd.topic))
      throw conflict(`A topic named '${cmd.topic.trim()}' already exists`);
    return decideAddTopic(cmd, { topicId: cmd.topicId, now: cmd.now });
  },
};
