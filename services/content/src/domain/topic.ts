import { ContentEvents } from '@nudge/contracts';
import type { DecidedEvent } from './template';

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
