import { EngagementEvents, eventData } from '@nudge/contracts';
import { type EventEnvelope, type EventHandler, moveCount } from '@nudge/platform';
import { type ContentCollections, likeStateId } from './collections';

/** True when `event` comes after the state's last event (same stream: by version; otherwise by time). */
const isNewer = (event: EventEnvelope, state: { at: string; stream: string; version: number }) => {
  if (event.stream === state.stream) return event.version > state.version;
  return event.occurredAt > state.at;
};

/**
 * Like and comment counters from engagement's events, O(1) per event. Each handler reads the state the event changes
 * (one document per (reader, post) like, per comment), and when the event is newer writes the new state and moves the
 * post's counter by what the change makes (+1, -1 or 0) with `$inc`, both sent together: one commit on the embedded
 * store, so a crash keeps both or neither.
 *
 * - Redelivery (the consumer records no processed ids for these types, ContentService.idempotentTypes): a repeated or
 *   older event finds its state already newer and writes nothing, so it is counted once.
 * - The bus runs different streams at the same time (two readers liking one post): `$inc` adds to whatever the counter
 *   holds when it is applied, so concurrent changes of one post all count, in any order. One stream's events come one
 *   after another (in order per key), so the state read before a write is never stale for its own stream.
 * - On MongoDB the state and the counter are two writes (no transaction): a crash between them can leave the
 *   counter one off.
 */
export function engagementHandlers(c: ContentCollections): Record<string, EventHandler> {
  const move = (templateId: string, field: 'totallikes' | 'totalcomments', by: number) =>
    moveCount(c.counters, templateId, field, by, ['totallikes', 'totalcomments']);

  return {
    [EngagementEvents.LikeSet.type]: async (event) => {
      const d = eventData(EngagementEvents.LikeSet, event);
      const _id = likeStateId(d.userId, d.templateId);
      const current = await c.likes.findOne({ _id });
      if (current && !isNewer(event, current)) return;
      const by = (d.liked ? 1 : 0) - (current?.liked ? 1 : 0);
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
        move(d.templateId, 'totallikes', by),
      ]);
    },
    [EngagementEvents.CommentAdded.type]: async (event) => {
      const d = eventData(EngagementEvents.CommentAdded, event);
      // A comment seen before (added, or a deletion seen first) is never added again: a late or repeated add counts 0.
      if (await c.comments.findOne({ _id: d.commentId })) return;
      await Promise.all([
        c.comments.replaceOne(
          { _id: d.commentId },
          { _id: d.commentId, templateId: d.templateId, deleted: false },
          { upsert: true },
        ),
        move(d.templateId, 'totalcomments', 1),
      ]);
    },
    [EngagementEvents.CommentDeleted.type]: async (event) => {
      const d = eventData(EngagementEvents.CommentDeleted, event);
      const current = await c.comments.findOne({ _id: d.commentId });
      if (current?.deleted) return;
      // A deletion seen before its add leaves a tombstone (the add then counts 0) and moves nothing.
      await Promise.all([
        c.comments.replaceOne(
          { _id: d.commentId },
          { _id: d.commentId, templateId: d.templateId, deleted: true },
          { upsert: true },
        ),
        move(d.templateId, 'totalcomments', current ? -1 : 0),
      ]);
    },
  };
}
