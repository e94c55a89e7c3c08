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
 * one post may overlap, and a count taken before the other reader's state was written must not be the last number
 * set. So a handler ends by settling the counter: it counts the states and reads the counter, and sets the count
 * while the two differ. The last set is then followed by its writer's settle, which no state write escapes (a state
 * written later is followed by its own writer's settle), so the counter ends equal to the count.
 */
export function engagementHandlers(c: ContentCollections): Record<string, EventHandler> {
  type Field = 'totallikes' | 'totalcomments';
  const setCounter = (templateId: string, field: Field, n: number) =>
    c.counters.updateOne(
      { _id: templateId },
      {
        $set: { [field]: n },
        $setOnInsert: { [field === 'totallikes' ? 'totalcomments' : 'totallikes']: 0 },
      },
      { upsert: true },
    );
  const settle = async (templateId: string, field: Field, count: () => Promise<number>) => {
    for (;;) {
      const [n, counter] = await Promise.all([count(), c.counters.findOne({ _id: templateId })]);
      if (counter?.[field] === n) return;
      await setCounter(templateId, field, n);
    }
  };
  const likesOf = (templateId: string) => () => c.likes.countDocuments({ templateId, liked: true });
  const recountComments = (templateId: string) =>
    settle(templateId, 'totalcomments', () => c.comments.countDocuments({ templateId, deleted: false }));

  return {
    [EngagementEvents.LikeSet.type]: async (event) => {
      const d = eventData(EngagementEvents.LikeSet, event);
      const _id = `${d.userId}:${d.templateId}`;
      // The state and the other readers' likes are read together; a newer state and the count it makes are written
      // together (one commit on the embedded store), and the settle catches a like stored meanwhile.
      const [current, others] = await Promise.all([
        c.likes.findOne({ _id }),
        c.likes.countDocuments({ templateId: d.templateId, liked: true, _id: { $ne: _id } }),
      ]);
      if (!current || isNewer(event, current)) {
        await Promise.all([
          c.likes.replaceOne(
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
          ),
          setCounter(d.templateId, 'totallikes', others + (d.liked ? 1 : 0)),
        ]);
      }
      await settle(d.templateId, 'totallikes', likesOf(d.templateId));
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
