import { EngagementEvents, eventData } from '@nudge/contracts';
import type { EventEnvelope, EventHandler } from '@nudge/platform';
import type { ContentCollections } from './collections';

/** True when `event` comes after the state's last event (same stream: by version; otherwise by time). */
const isNewer = (event: EventEnvelope, state: { at: string; stream: string; version: number }) => {
  if (event.stream === state.stream) return event.version > state.version;
  return event.occurredAt > state.at;
};

/**
 * Like and comment counters from engagement's events. Every handler sets a state and recounts from the states, so
 * delivering an event twice (or a whole stream again) leaves the same numbers: the like count is the number of
 * (user, post) pairs whose state is liked, the comment count the number of comments not deleted. So the consumer
 * records no processed ids for these types (ContentService.idempotentTypes).
 *
 * The bus runs the events of different streams at the same time (two readers liking one post), so two recounts of
 * one post may overlap, and a count taken before the other reader's state was written must not be the last one
 * set: a recount sets its number and counts again until the two agree. The last set is then followed by a count
 * that no later state write escapes (its writer recounts and sets after it).
 */
export function engagementHandlers(c: ContentCollections): Record<string, EventHandler> {
  const settle = async (
    templateId: string,
    field: 'totallikes' | 'totalcomments',
    count: () => Promise<number>,
  ) => {
    const other = field === 'totallikes' ? 'totalcomments' : 'totallikes';
    for (let n = await count(); ; ) {
      await c.counters.updateOne(
        { _id: templateId },
        { $set: { [field]: n }, $setOnInsert: { [other]: 0 } },
        { upsert: true },
      );
      const again = await count();
      if (again === n) return;
      n = again;
    }
  };
  const recountLikes = (templateId: string) =>
    settle(templateId, 'totallikes', () => c.likes.countDocuments({ templateId, liked: true }));
  const recountComments = (templateId: string) =>
    settle(templateId, 'totalcomments', () => c.comments.countDocuments({ templateId, deleted: false }));

  return {
    [EngagementEvents.LikeSet.type]: async (event) => {
      const d = eventData(EngagementEvents.LikeSet, event);
      const _id = `${d.userId}:${d.templateId}`;
      const current = await c.likes.findOne({ _id });
      if (!current || isNewer(event, current)) {
        await c.likes.replaceOne(
          { _id },
          {
            _id,
            userId: d.userId,
            templateId: d.templateId,
            liked: d.liked,
            at: event.occurredAt,
            stream: event.stream,
            version: event.version,
          },
          { upsert: true },
        );
      }
      await recountLikes(d.templateId);
    },
    [EngagementEvents.CommentAdded.type]: async (event) => {
      const d = eventData(EngagementEvents.CommentAdded, event);
      // $setOnInsert: a deletion seen first (or earlier) is never undone by a late or repeated add.
      await c.comments.updateOne(
        { _id: d.commentId },
        { $setOnInsert: { templateId: d.templateId, deleted: false } },
        { upsert: true },
      );
      await recountComments(d.templateId);
    },
    [EngagementEvents.CommentDeleted.type]: async (event) => {
      const d = eventData(EngagementEvents.CommentDeleted, event);
      await c.comments.updateOne(
        { _id: d.commentId },
        { $set: { templateId: d.templateId, deleted: true } },
        { upsert: true },
      );
      await recountComments(d.templateId);
    },
  };
}
