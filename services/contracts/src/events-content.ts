import { z } from 'zod';

/**
 * A post's full state after a change (event-carried state transfer): engagement keeps its own copy of posts
 * from these (liked list, comment permissions, gating) without calling content.
 */
export const TemplateSnapshot = z.object({
  templateId: z.string(),
  heading: z.string(),
  body: z.string(),
  /** URL of the stored image (/api/media/{id}), never a data URL; '' when none. */
  image: z.string(),
  /** 0 free, 1 premium. */
  type: z.union([z.literal(0), z.literal(1)]),
  topic: z.string(),
  /** true = active, false = paused. */
  status: z.boolean(),
  subjects: z.array(z.object({ id: z.string(), title: z.string(), status: z.boolean() })),
  createdAt: z.string(),
});
export type TemplateSnapshot = z.infer<typeof TemplateSnapshot>;

/** A promotion's full state after a change (admin.md §3). */
export const PromotionSnapshot = z.object({
  promotionId: z.string(),
  /** /api/media/{id} of an uploaded image; '' when none. */
  image: z.string(),
  /** An http(s) or /api/media image URL; '' when none. */
  imageurl: z.string(),
  heading: z.string(),
  body: z.string(),
  btntext: z.string(),
  btnurl: z.string(),
  /** A date (YYYY-MM-DD, through that day UTC) or an ISO instant; null = never. */
  expires: z.string().nullable(),
  status: z.boolean(),
  createdAt: z.string(),
});
export type PromotionSnapshot = z.infer<typeof PromotionSnapshot>;

/**
 * Events of the content service, on topic nudge.content.events. Streams: `template-<id>`, `topics` (one stream
 * for the topic list, so unique names and the single default topic are decided against one version),
 * `promotion-<id>`, `sitesettings`, `read-<id>`.
 */
export const ContentEvents = {
  /** A topic was added; with `default: true` it becomes the only default topic (the previous one stops being it). */
  TopicAdded: {
    type: 'content.TopicAdded.v1',
    data: z.object({ topicId: z.string(), topic: z.string(), default: z.boolean(), createdAt: z.string() }),
  },
  TemplateAdded: { type: 'content.TemplateAdded.v1', data: TemplateSnapshot },
  TemplateUpdated: { type: 'content.TemplateUpdated.v1', data: TemplateSnapshot },
  /**
   * A signed-in reader received a post's readable body: type 1 from POST /api/template/{id} on the web, type 2 from
   * today's post when they arrived from an e-mail's continue-reading link. Stream `read-<id>` (one event each).
   * Engagement keeps reading history (streak, strip, levels) from these; content counts total_reads.
   */
  PostOpened: {
    type: 'content.PostOpened.v1',
    data: z.object({
      userId: z.string(),
      templateId: z.string(),
      type: z.union([z.literal(1), z.literal(2)]),
      openedAt: z.string(),
    }),
  },
  /** The whole settings object after the change (defaults not filled in). */
  SiteSettingsUpdated: {
    type: 'content.SiteSettingsUpdated.v1',
    data: z.object({ settings: z.record(z.string(), z.unknown()) }),
  },
  PromotionAdded: { type: 'content.PromotionAdded.v1', data: PromotionSnapshot },
  PromotionUpdated: { type: 'content.PromotionUpdated.v1', data: PromotionSnapshot },
} as const;

export type ContentEventName = keyof typeof ContentEvents;
export type ContentEventData<K extends ContentEventName> = z.infer<(typeof ContentEvents)[K]['data']>;
