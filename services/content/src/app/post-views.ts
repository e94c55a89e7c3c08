import { type AdminTemplate, type Gated, gatePost, type ReaderPost, type Role } from '@nudge/contracts';
import type { EmailStatsReader } from '@nudge/platform';
import type { TemplateState } from '../domain/template';
import { type ContentCollections, likeStateId, ZERO_COUNTERS } from '../events/collections';

type Viewer = { userId: string | null; role: Role | null };
type UngatedReaderPost = Omit<ReaderPost, 'body' | 'locked' | 'preview'> & { body: string };

/** Percentage of sent e-mails opened, to one decimal; 0 when none were sent. */
export const openRate = (sent: number, opened: number) =>
  sent > 0 ? Math.round((opened / sent) * 1000) / 10 : 0;

/** Builds what leaves the service: reader posts (always gated) and admin posts (with analytics). */
/** emailStats: reporting's e-mail figures per post and subject line (absent or unanswered = zeros). */
export function createPostViews(c: ContentCollections, emailStats?: EmailStatsReader) {
  const byId = <T extends { _id: string }>(docs: T[]) => new Map(docs.map((d) => [d._id, d]));

  async function readerPosts(
    templates: TemplateState[],
    viewer: Viewer,
  ): Promise<Gated<UngatedReaderPost>[]> {
    return readerPostsOf(templates.map((template) => ({ template, viewer })));
  }

  /** What readers and admins both see of a post. */
  const postFields = (t: TemplateState, counts: { totallikes: number; totalcomments: number }) => ({
    _id: t._id,
    heading: t.heading,
    body: t.body,
    image: t.image,
    type: t.type,
    topic: t.topic,
    createdAt: t.createdAt,
    totallikes: counts.totallikes,
    totalcomments: counts.totalcomments,
  });

  /** The reader's view of a post, from its counts and whether the viewer likes it. */
  const readerView = (
    t: TemplateState,
    viewer: Viewer,
    counts: { totallikes: number; totalcomments: number },
    like: boolean,
  ): Gated<UngatedReaderPost> => gatePost({ ...postFields(t, counts), like }, viewer.role);

  /**
   * Each post as its own viewer reads it (a feed page; one post, POST /api/template/{id}; the reminder batch: one post
   * per reader), with two lookups in all.
   */
  async function readerPostsOf(
    items: Array<{ template: TemplateState; viewer: Viewer }>,
  ): Promise<Gated<UngatedReaderPost>[]> {
    if (items.length === 0) return [];
    const ids = [...new Set(items.map((i) => i.template._id))];
    // The like states of these readers and posts by their _ids (one per reader and post), beside the counters: two
    // reads by _id, which the embedded store answers from what it read lately.
    const wanted = [
      ...new Set(
        items.flatMap(({ template, viewer }) =>
          viewer.userId ? [likeStateId(viewer.userId, template._id)] : [],
        ),
      ),
    ];
    const [counters, likes] = await Promise.all([
      c.counters.find({ _id: { $in: ids } }).then(byId),
      wanted.length > 0 ? c.likes.find({ _id: { $in: wanted } }) : [],
    ]);
    const liked = new Set(likes.filter((l) => l.liked).map((l) => likeStateId(l.userId, l.templateId)));
    return items.map(({ template: t, viewer }) =>
      readerView(
        t,
        viewer,
        counters.get(t._id) ?? ZERO_COUNTERS,
        viewer.userId ? liked.has(likeStateId(viewer.userId, t._id)) : false,
      ),
    );
  }

  async function adminPosts(templates: TemplateState[], withSubjects: boolean): Promise<AdminTemplate[]> {
    if (templates.length === 0) return [];
    const ids = templates.map((t) => t._id);
    const [counters, reads, figures] = await Promise.all([
      c.counters.find({ _id: { $in: ids } }).then(byId),
      c.readCounts.find({ _id: { $in: ids } }).then(byId),
      emailStats
        ? emailStats.read({ templateIds: ids }).then((r) => r.templates)
        : Promise.resolve(undefined),
    ]);
    const email = new Map(Object.entries(figures ?? {}));
    return templates.map((t) => {
      const counts = counters.get(t._id) ?? ZERO_COUNTERS;
      const sent = email.get(t._id)?.emails_sent ?? 0;
      const opened = email.get(t._id)?.emails_open ?? 0;
      const view: AdminTemplate = {
        ...postFields(t, counts),
        status: t.status,
        subjects: t.subjects,
        updatedAt: t.updatedAt,
        emails_sent: sent,
        emails_open: opened,
        email_open_rate: openRate(sent, opened),
        total_reads: reads.get(t._id)?.total_reads ?? 0,
      };
      if (withSubjects) {
        view.subjectLevelAnalysis = t.subjects.map((s) => {
          const stats = email.get(t._id)?.subjects[s.id];
          const subjectSent = stats?.emails_sent ?? 0;
          const subjectOpened = stats?.emails_open ?? 0;
          return {
            id: s.id,
            subjectTitle: s.title,
            subjectStatus: s.status ? 'Active' : 'Pause',
            emails_sent: subjectSent,
            emails_open: subjectOpened,
            email_open_rate: openRate(subjectSent, subjectOpened),
          };
        });
      }
      return view;
    });
  }

  return { readerPosts, readerPostsOf, adminPosts };
}

export type PostViews = ReturnType<typeof createPostViews>;
