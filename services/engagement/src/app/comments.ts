import { createHash } from 'node:crypto';
import { canReadPremium, type Role } from '@nudge/contracts';
import {
  AppError,
  type DocumentStore,
  forbidden,
  handleCommand,
  newId,
  notFound,
  type ServiceEventStore,
  type UserDirectory,
} from '@nudge/platform';
import {
  COMMENT_TEXTS,
  type CommentCommand,
  commentDecider,
  commentRefusal,
  commentStream,
  type Refusal,
} from '../domain/comments';
import { type CommentDoc, commentsCollection } from '../events/comments-projection';
import type { PostsCopy } from '../events/posts-copy';
import type { SiteSettingsCopy } from '../events/site-settings-copy';
import type { AuthSessions } from '../infra/auth-client';
import { POST_NOT_FOUND } from './likes';

const refuse = (refusal: Refusal) => new AppError(refusal.kind, refusal.message);

export function createComments(deps: {
  store: DocumentStore;
  events: ServiceEventStore;
  posts: PostsCopy;
  settings: SiteSettingsCopy;
  directory: UserDirectory;
  clock: () => Date;
  /** auth's current names, asked when the directory has none yet (it learns them through the bus a moment later). */
  auth?: Pick<AuthSessions, 'names'>;
}) {
  const comments = commentsCollection(deps.store);

  /**
   * Author names come from the directory at read time, so a name change shows on every comment. No address leaves
   * the server: `mine` tells the caller which comments are theirs (from the verified session), so the web offers
   * edit and delete on those.
   */
  async function views(docs: CommentDoc[], viewerId: string | undefined) {
    const authors = await deps.directory.byIds(docs.map((d) => d.userId));
    return docs.map((doc) => {
      const author = authors.get(doc.userId);
      return {
        _id: doc._id,
        templateId: doc.templateId,
        message: doc.message,
        createdAt: doc.createdAt,
        ...(doc.updatedAt ? { updatedAt: doc.updatedAt } : {}),
        userDetails: { email: '', firstname: author?.firstname ?? '', lastname: author?.lastname ?? '' },
        mine: viewerId !== undefined && viewerId === doc.userId,
      };
    });
  }

  /** Parallel edits (or an edit beside a delete) each decide on the comment as the other left it. */
  const command = (cmd: CommentCommand, actor: string) =>
    handleCommand(deps.events, commentStream(cmd.commentId), commentDecider, cmd, { actor });

  const load = async (id: string) => {
    const doc = await comments.findOne({ _id: id });
    if (!doc || doc.deleted) throw notFound(COMMENT_TEXTS.notFound);
    return doc;
  };
  const view = async (id: string, viewerId: string) => {
    const [shown] = await views([await load(id)], viewerId);
    if (!shown) throw notFound(COMMENT_TEXTS.notFound);
    return shown;
  };

  /**
   * A post's comments follow its body's gating (reader.md §5, §6): a paused post's are not found but for an admin; a
   * premium post's are for premium readers and admins only, the others get none (`locked`, as the gated post).
   */
  async function list(
    templateId: string,
    page: number,
    limit: number,
    viewer: { userId?: string; role?: Role } = {},
  ) {
    const filter = { templateId, deleted: false };
    const post = await deps.posts.get(templateId);
    if (post && !post.status && viewer.role !== 'admin') throw notFound(POST_NOT_FOUND);
    if (post?.type === 1 && !canReadPremium(viewer.role))
      return { comments: [], total: await comments.countDocuments(filter), locked: true as const };
    const viewerId = viewer.userId;
    const [docs, total] = await Promise.all([
      comments.find(filter, { sort: { createdAt: -1, _id: -1 }, skip: (page - 1) * limit, limit }),
      comments.countDocuments(filter),
    ]);
    return { comments: await views(docs, viewerId), total };
  }

  /**
   * idempotencyKey (the request's Idempotency-Key header): a retry with the same key returns the comment the first
   * request made instead of posting it twice. The key names the comment (a hash of user and key), so the second
   * request finds the comment's stream taken and records nothing.
   */
  async function add(
    user: { userId: string; role: Role },
    templateId: string,
    message: string,
    idempotencyKey?: string,
  ) {
    const post = await deps.posts.get(templateId);
    if (!post || (!post.status && user.role !== 'admin')) throw notFound(POST_NOT_FOUND);
    const author = await deps.directory.byId(user.userId);
    let names = { firstname: author?.firstname, lastname: author?.lastname };
    // A name the reader just saved may not have reached the directory yet: auth has the truth.
    if (deps.auth && !(names.firstname?.trim() && names.lastname?.trim())) {
      names = (await deps.auth.names(user.userId).catch(() => null)) ?? names;
    }
    const refusal = commentRefusal({
      role: user.role,
      postType: post.type,
      commentsOn: await deps.settings.commentsVisible(),
      ...names,
    });
    if (refusal) throw refuse(refusal);
    const commentId = idempotencyKey
      ? createHash('sha256').update(`${user.userId}|${idempotencyKey}`).digest('hex').slice(0, 24)
      : newId(deps.clock());
    await command({ kind: 'add', commentId, templateId, userId: user.userId, message }, user.userId);
    return view(commentId, user.userId);
  }

  async function edit(user: { userId: string }, id: string, message: string) {
    await load(id);
    if (!(await deps.settings.commentsVisible())) throw forbidden(COMMENT_TEXTS.off);
    await command({ kind: 'edit', commentId: id, userId: user.userId, message }, user.userId);
    return view(id, user.userId);
  }

  async function remove(user: { userId: string; role: Role }, id: string) {
    await command({ kind: 'delete', commentId: id, userId: user.userId, role: user.role }, user.userId);
  }

  return { list, add, edit, remove };
}

export type Comments = ReturnType<typeof createComments>;
