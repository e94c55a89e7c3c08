import type { Gated, ReminderPost, Role } from '@nudge/contracts';
import { canReadPremium, dayKey, gatePost } from '@nudge/contracts';
import { DuplicateKeyError, type UserDirectory } from '@nudge/platform';
import type { TemplateState } from '../domain/template';
import { pickTodayPost, previousDays } from '../domain/today';
import type { ContentCollections, FeedEntry, TodayPickDoc } from '../events/collections';
import type { FeedOrder } from './feed-order';
import type { PostViews } from './post-views';
import type { Reads } from './reads';

/** Days whose picks today's post avoids repeating (when other posts exist). */
export const NO_REPEAT_DAYS = 7;
export const NO_POST_TODAY = 'No post for today yet';

/** What a reminder shows of a gated post: its body, or for a locked one the preview. */
const bodyOf = (p: Gated<{ body: string }>): Pick<ReminderPost['template'], 'body' | 'locked' | 'preview'> =>
  p.locked ? { locked: true, preview: p.preview } : { body: p.body };

/** Whose post of which day, and what they may draw from. */
interface Want {
  userId: string;
  day: string;
  topics: string[];
  premium: boolean;
}

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
  function choose(
    active: ReadonlyArray<FeedEntry & { type: number }>,
    want: Want,
    recent: ReadonlySet<string>,
  ): string | null {
    const mine = new Set(want.topics);
    const ofMine = active.filter((p) => mine.has(p.topic));
    const pools = want.premium
      ? [ofMine, active]
      : [ofMine.filter((p) => p.type === 0), active.filter((p) => p.type === 0), ofMine, active];
    const candidates = (pools.find((pool) => pool.length > 0) ?? []).map((p) => p.id);
    return pickTodayPost(candidates, recent, `${want.userId}:${want.day}`);
  }

  /** The active posts of these ids (status on), by id. */
  async function activePosts(ids: string[]): Promise<Map<string, TemplateState>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const found = await c.templates.find({ _id: { $in: unique }, status: true });
    return new Map(found.map((t) => [t._id, t]));
  }

  /**
   * Each reader's post of their day: the remembered pick if it is still active; otherwise a new one, remembered.
   * A batch costs a few lookups and one insert of the new picks together, whatever its size.
   */
  async function picksFor(wants: Want[]): Promise<Map<string, TemplateState>> {
    const picks = new Map<string, TemplateState>();
    if (wants.length === 0) return picks;
    const keyOf = (w: Want) => `${w.userId}:${w.day}`;
    const keys = [...new Set(wants.map(keyOf))];
    const remembered = new Map(
      (await c.todayPicks.find({ _id: keys.length === 1 ? keys[0] : { $in: keys } })).map((p) => [p._id, p]),
    );
    const stillActive = await activePosts([...remembered.values()].map((p) => p.templateId));
    const open: Want[] = [];
    for (const w of wants) {
      const post = stillActive.get(remembered.get(keyOf(w))?.templateId ?? '');
      if (post) picks.set(keyOf(w), post);
      else open.push(w);
    }
    if (open.length > 0) {
      const active = await typed(await order.active());
      // A batch's readers share a few local days: each day's previous days are computed once.
      const before = new Map<string, ReadonlySet<string>>();
      const daysBefore = (day: string) => {
        let found = before.get(day);
        if (!found) {
          found = new Set(previousDays(day, NO_REPEAT_DAYS));
          before.set(day, found);
        }
        return found;
      };
      const days = [...new Set([...new Set(open.map((w) => w.day))].flatMap((day) => [...daysBefore(day)]))];
      const userIds = [...new Set(open.map((w) => w.userId))];
      const recentByUser = new Map<string, Array<{ day: string; templateId: string }>>();
      for (const p of await c.todayPicks.find({
        userId: userIds.length === 1 ? userIds[0] : { $in: userIds },
        day: { $in: days },
      }))
        recentByUser.set(p.userId, [...(recentByUser.get(p.userId) ?? []), p]);
      const fresh: TodayPickDoc[] = [];
      const freshKeys = new Set<string>();
      const replaced: Array<{ doc: TodayPickDoc; was: string }> = [];
      const pickedAt = clock().toISOString();
      for (const w of open) {
        const mine = daysBefore(w.day);
        const recent = new Set(
          (recentByUser.get(w.userId) ?? []).filter((p) => mine.has(p.day)).map((p) => p.templateId),
        );
        const templateId = choose(active, w, recent);
        if (!templateId) continue;
        const doc = { _id: keyOf(w), userId: w.userId, day: w.day, templateId, pickedAt };
        const was = remembered.get(doc._id);
        // The day's post was paused since: replace it (unless a parallel call already did).
        if (was) replaced.push({ doc, was: was.templateId });
        else if (!freshKeys.has(doc._id)) {
          freshKeys.add(doc._id);
          fresh.push(doc);
        }
      }
      const stored = await insertPicks(fresh);
      for (const { doc, was } of replaced)
        await c.todayPicks.updateOne({ _id: doc._id, templateId: was }, { $set: doc });
      // What is stored now (a parallel call may have picked first) is the pick of the day: the picks this call
      // inserted are, the others are read again.
      const settledKeys = [...fresh.filter((d) => !stored.has(d)), ...replaced.map((r) => r.doc)].map(
        (d) => d._id,
      );
      if (stored.size > 0 || settledKeys.length > 0) {
        const settled = [
          ...stored,
          ...(settledKeys.length > 0
            ? await c.todayPicks.find({
                _id: settledKeys.length === 1 ? settledKeys[0] : { $in: settledKeys },
              })
            : []),
        ];
        const posts = await activePosts(settled.map((p) => p.templateId));
        for (const p of settled) {
          const post = posts.get(p.templateId);
          if (post) picks.set(p._id, post);
        }
      }
    }
    return new Map(
      wants.flatMap((w) => (picks.has(keyOf(w)) ? [[w.userId, picks.get(keyOf(w)) as TemplateState]] : [])),
    );
  }

  /**
   * New picks in one write; when a parallel call stored some first, the others one by one (theirs stay). Answers the
   * picks known to be stored as given: all of them, or after a clash those inserted one by one.
   */
  async function insertPicks(docs: TodayPickDoc[]): Promise<Set<TodayPickDoc>> {
    if (docs.length === 0) return new Set();
    try {
      await c.todayPicks.insertMany(docs);
      return new Set(docs);
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
    }
    const stored = new Set<TodayPickDoc>();
    for (const doc of docs) {
      try {
        await c.todayPicks.insertOne(doc);
        stored.add(doc);
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
    }
    return stored;
  }

  const wantOf = (userId: string, day: string, topics: string[] | undefined, role: Role): Want => ({
    userId,
    day,
    topics: topics ?? [],
    premium: role === 'premium' || role === 'admin',
  });

  /**
   * The reminder sender's batch: each reader's post of their local day (the same pick the web shows that day),
   * gated by their role, with the post's Active subject lines and up to `recommend` other posts of its topic.
   */
  async function forReminders(
    readers: { userId: string; role: Role; localDate: string }[],
    recommend: number,
  ) {
    const active = await order.active();
    const users = await directory.byIds([...new Set(readers.map((r) => r.userId))]);
    const picks = await picksFor(
      readers.map((r) => wantOf(r.userId, r.localDate, users.get(r.userId)?.topics, r.role)),
    );
    const chosen = readers.flatMap((r) => {
      const post = picks.get(r.userId);
      return post ? [{ reader: r, post }] : [];
    });
    // Recommendations depend on the post alone: looked up once per post of the batch.
    const recommendations = new Map<string, Promise<{ _id: string; heading: string }[]>>();
    const recommendationsOf = (post: TemplateState) => {
      let found = recommendations.get(post._id);
      if (!found) {
        const others = active.filter((p) => p.topic === post.topic && p.id !== post._id).slice(0, recommend);
        found =
          recommend > 0
            ? order
                .posts(
                  others.map((p) => p.id),
                  active,
                )
                .then((posts) => posts.map((p) => ({ _id: p._id, heading: p.heading })))
            : Promise.resolve([]);
        recommendations.set(post._id, found);
      }
      return found;
    };
    // One entry per post and gating (a batch has a few), and each reader's key into them: the e-mail shows the
    // post's heading, body or preview and image only, the same for every reader of that post and gating.
    const posts: Record<string, ReminderPost> = {};
    const picked: Record<string, string> = {};
    /** The key in `posts` by post and whether the reader may read premium posts: gated once each. */
    const keys = new Map<string, string>();
    for (const { reader, post } of chosen) {
      const access = `${post._id} ${canReadPremium(reader.role)}`;
      let key = keys.get(access);
      if (key === undefined) {
        const gated = gatePost(
          { _id: post._id, heading: post.heading, body: post.body, image: post.image, type: post.type },
          reader.role,
        );
        key = gated.locked ? `${post._id}.locked` : post._id;
        keys.set(access, key);
        posts[key] ??= {
          template: { _id: gated._id, heading: gated.heading, image: gated.image, ...bodyOf(gated) },
          subjects: post.subjects.filter((s) => s.status).map((s) => ({ id: s.id, title: s.title })),
          recommendations: await recommendationsOf(post),
        };
      }
      picked[reader.userId] = key;
    }
    return { posts, picks: picked };
  }

  return {
    forReminders,
    async forUser(userId: string, role: Role, event: string | undefined) {
      const user = await directory.byId(userId);
      const day = dayKey(clock(), user?.timeZone);
      const post = (await picksFor([wantOf(userId, day, user?.topics, role)])).get(userId);
      if (!post) return { status: false, template: null, message: NO_POST_TODAY };
      const [template] = await views.readerPosts([post], { userId, role });
      if (template && !template.locked && event === 'continue_reading')
        await reads.opened(userId, post._id, 2);
      return { status: true, template: template ?? null, message: '' };
    },
  };
}
