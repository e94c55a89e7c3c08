import type { DocumentStore } from '@nudge/platform';
import type { PromotionState } from '../domain/promotion';
import type { StoredSettings } from '../domain/site-settings';
import type { TemplateState } from '../domain/template';
import type { TopicState } from '../domain/topic';

/** The content service's collections and their documents, in one place. */
/** One entry of the feed order: an active post, its topic and creation time. */
/** `type` (0 free, 1 premium) is missing on entries written before it was kept. */
export type FeedEntry = { id: string; topic: string; at: string; type?: number };
/**
 * Every active post, newest first, in one small document: feed pages, topic counts, recommendations and today's
 * candidates are cut from it, so no request sorts the posts collection.
 */
/** `rev` moves with every write: a write names the revision it read, so two replicas never write over each other. */
export type FeedOrderDoc = { _id: string; posts: FeedEntry[]; rev?: number };
export const FEED_ORDER = 'active';
/**
 * Changes with every write of the feed order (a fresh random value, so a rebuild never repeats an old one): readers
 * keep the order they read last and read it again only when this differs.
 */
export type FeedOrderVersionDoc = { _id: string; version: string };
export type TopicsMetaDoc = { _id: string; version: number };
export type SettingsDoc = { _id: string; settings: StoredSettings; version: number };
/** One document per PostOpened event (keyed by its stream), so counting stays exact under redelivery. */
export type ReadDoc = { _id: string; templateId: string; userId: string; type: 1 | 2; openedAt: string };
export type ReadCountDoc = { _id: string; total_reads: number };
/** Like and comment counters of a post, kept from engagement's events. */
export type CounterDoc = { _id: string; totallikes: number; totalcomments: number };
/** The like state of one reader and post (one document each, so its id is a point lookup). */
export const likeStateId = (userId: string, templateId: string): string => `${userId}:${templateId}`;
export type LikeStateDoc = {
  _id: string;
  userId: string;
  templateId: string;
  liked: boolean;
  /** Position of the event that set this state: later events win, older redeliveries are ignored. */
  at: string;
  stream: string;
  version: number;
};
export type CommentStateDoc = { _id: string; templateId: string; deleted: boolean };
export type TodayPickDoc = { _id: string; userId: string; day: string; templateId: string; pickedAt: string };
export type MediaVariantDoc = { _id: string; variantId: string };

export function contentCollections(store: DocumentStore) {
  return {
    templates: store.collection<TemplateState>('templates'),
    feedOrder: store.collection<FeedOrderDoc>('feed_order'),
    feedOrderVersion: store.collection<FeedOrderVersionDoc>('feed_order_version'),
    topics: store.collection<TopicState>('topics'),
    topicsMeta: store.collection<TopicsMetaDoc>('topics_meta'),
    promotions: store.collection<PromotionState>('promotions'),
    settings: store.collection<SettingsDoc>('site_settings'),
    reads: store.collection<ReadDoc>('post_reads'),
    readCounts: store.collection<ReadCountDoc>('post_read_counts'),
    counters: store.collection<CounterDoc>('template_counters'),
    likes: store.collection<LikeStateDoc>('like_states'),
    comments: store.collection<CommentStateDoc>('comment_states'),
    todayPicks: store.collection<TodayPickDoc>('today_picks'),
    mediaVariants: store.collection<MediaVariantDoc>('media_variants'),
  };
}

export type ContentCollections = ReturnType<typeof contentCollections>;

export async function ensureContentIndexes(c: ContentCollections): Promise<void> {
  await c.templates.createIndex({ createdAt: -1 });
  await c.topics.createIndex({ key: 1 }, { unique: true });
  await c.reads.createIndex({ templateId: 1 });
  // Like states are read by their _ids only (likeStateId: the feed, one post, the projection) and counts move by
  // $inc: no secondary index, so a like costs no index write.
  await c.comments.createIndex({ templateId: 1, deleted: 1 });
  await c.todayPicks.createIndex({ userId: 1, day: 1 });
}

/** Counters of posts never liked or commented on are absent: they read 0. */
export const ZERO_COUNTERS = { totallikes: 0, totalcomments: 0 };
