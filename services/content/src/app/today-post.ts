import type { Role } from '@nudge/contracts';
import { dayKey } from '@nudge/contracts';
import { DuplicateKeyError, type UserDirectory } from '@nudge/platform';
import { pickTodayPost, previousDays } from '../domain/today';
import type { ContentCollections, FeedEntry } from '../events/collections';
import type { FeedOrder } from './feed-order';
import type { PostViews } from './post-views';
import type { Reads } from './reads';

/** Days whose picks today's post avoids repeating (when other posts exist). */
export const NO_REPEAT_DAYS = 7;
export const NO_POST_TODAY = 'No post for today yet';

/**
 * The signed-in reader's post of the day (reader.md §7 gettodaypost): drawn from their topics (every topic when they
 * chose none, or when their topics have no active post), a free one for a reader who is not premium (see choose), not one of the last 7 days' picks while others exist, and
 * remembered per (user, day in their time zone) so every call that day answers the same post.
 */
export function createTodayPost(deps: {
  c: ContentCollections;
  order: FeedOrder;
  directory: UserDirectory;
  views: PostViews;
  reads: Reads;
  clock: () => Date;
}) {
  const { c, order, directory, views, reads, clock } = deps;

  /** The active posts' types; entries stored before the feed order kept `type` are looked up. */
  async function typed(active: readonly FeedEntry[]): Promise<Array<FeedEntry & { type: number }>> {
    const missing = active.filter((p) => p.type === undefined).map((p) => p.id);
    const found = new Map<string, number>();
    if (missing.length > 0)
      for (const t of await c.templates.find({ _id: { $in: missing } })) found.set(t._id, t.type);
    return active.map((p) => ({ ...p, type: p.type ?? found.get(p.id) ?? 0 }));
  }

  /**
   * The candidates, first pool that has any: a reader who cannot open premium posts gets a free post of their
   * topics, then a free post of any topic, and only when no free post is active a premium one (shown locked, as
   * a teaser); a premium reader or admin draws from every post of their topics, then of all topics.
   */
  async function choose(
    userId: string,
    day: string,
    topics: string[],
    premium: boolean,
  ): Promise<string | null> {
    const active = await typed(await order.active());
    const mine = new Set(topics);
    const ofMine = active.filter((p) => mine.has(p.topic));
    const pools = premium
      ? [ofMine, active]
      : [ofMine.filter((p) => p.type === 0), active.filter((p) => p.type === 0), ofMine, active];
    const candidates = (pools.find((pool) => pool.length > 0) ?? []).map((p) => p.id);
    const recent = await c.todayPicks.find({ userId, day: { $in: previousDays(day, NO_REPEAT_DAYS) } });
    return pickTodayPost(candidates, new Set(recent.map((p) => p.templateId)), `${userId}:${day}`);
  }

  /** The remembered pick of the day if it is still active; otherwise a new one, remembered. */
  async function pickFor(userId: string, day: string, topics: string[], role: Role) {
    const premium = role === 'premium' || role === 'admin';
    const _id = `${userId}:${day}`;
    const remembered = await c.todayPicks.findOne({ _id });
    if (remembered) {
      const post = await c.templates.findOne({ _id: remembered.templateId, status: true });
      if (post) return post;
    }
    const templateId = await choose(userId, day, topics, premium);
    if (!templateId) return null;
    const doc = { _id, userId, day, templateId, pickedAt: clock().toISOString() };
    if (remembered) {
      // The day's post was paused since: replace it (unless a parallel call already did).
      await c.todayPicks.updateOne({ _id, templateId: remembered.templateId }, { $set: doc });
    } else {
      try {
        await c.todayPicks.insertOne(doc);
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
    }
    const settled = await c.todayPicks.findOne({ _id });
    return c.templates.findOne({ _id: settled?.templateId ?? templateId, status: true });
  }

  /**
   * The reminder sender's batch: each reader's post of their local day (the same pick the web shows that day),
   * gated by their role, with the post's Active subject lines and up to `recommend` other posts of its topic.
   */
  async function forReminders(
    readers: { userId: string; role: Role; localDate: string }[],
    recommend: number,
  ) {
    const active = await order.active();
    const posts: Record<
      string,
      {
        template: Awaited<ReturnType<PostViews['readerPosts']>>[number];
        subjects: { id: string; title: string }[];
        recommendations: { _id: string; heading: string }[];
      }
    > = {};
    for (const r of readers) {
      const user = await directory.byId(r.userId);
      const post = await pickFor(r.userId, r.localDate, user?.topics ?? [], r.role);
      if (!post) continue;
      const [template] = await views.readerPosts([post], { userId: r.userId, role: r.role });
      if (!template) continue;
      const others = active.filter((p) => p.topic === post.topic && p.id !== post._id).slice(0, recommend);
      const recommended =
        recommend > 0
          ? await order.posts(
              others.map((p) => p.id),
              active,
            )
          : [];
      posts[r.userId] = {
        template,
        subjects: post.subjects.filter((s) => s.status).map((s) => ({ id: s.id, title: s.title })),
        recommendations: recommended.map((p) => ({ _id: p._id, heading: p.heading })),
      };
    }
    return posts;
  }

  return {
    forReminders,
    async forUser(userId: string, role: Role, event: string | undefined) {
      const user = await directory.byId(userId);
      const day = dayKey(clock(), user?.timeZone);
      const post = await pickFor(userId, day, user?.topics ?? [], role);
      if (!post) return { status: false, template: null, message: NO_POST_TODAY };
      const [template] = await views.readerPosts([post], { userId, role });
      if (template && !template.locked && event === 'continue_reading')
        await reads.opened(userId, post._id, 2);
      return { status: true, template: template ?? null, message: '' };
    },
  };
}
