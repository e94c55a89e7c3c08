import type { Role } from '@nudge/contracts';
import {
  AppError,
  type DocumentStore,
  forbidden,
  newId,
  notFound,
  type ServiceEventStore,
  type UserDirectory,
} from '@nudge/platform';
import {
  COMMENT_TEXTS,
  commentRefusal,
  commentStream,
  decideAddComment,
  decideDeleteComment,
  decideEditComment,
  isRefusal,
  type Refusal,
} from '../domain/comments';
import { type CommentDoc, commentsCollection } from '../events/comments-projection';
import type { PostsCopy } from '../events/posts-copy';
import type { SiteSettingsCopy } from '../events/site-settings-copy';
import { POST_NOT_FOUND } from './likes';

const refuse = (refusal: Refusal) => new AppError(refusal.kind, refusal.message);

export function createComments(deps: {
  store: DocumentStore;
  events: ServiceEventStore;
  posts: PostsCopy;
  settings: SiteSettingsCopy;
  directory: UserDirectory;
  clock: () => Date;
}) {
  const comments = commentsCollection(deps.store);

  /** Author names come from the directory at read time, so a name change shows on every comment. */
  async function views(docs: CommentDoc[]) {
    const authors = await deps.directory.byIds(docs.map((d) => d.userId));
    return docs.map((doc) => {
      const author = authors.get(doc.userId);
      return {
        _id: doc._id,
        templateId: doc.templateId,
        message: doc.message,
        createdAt: doc.createdAt,
        ...(doc.updatedAt ? { updatedAt: doc.updatedAt } : {}),
        userDetails: {
          email: author?.email ?? '',
          firstname: author?.firstname ?? '',
          lastname: author?.lastname ?? '',
        },
      };
    });
  }

  const load = async (id: string) => {
    const doc = await comments.findOne({ _id: id });
    if (!doc || doc.deleted) throw notFound(COMMENT_TEXTS.notFound);
    return doc;
  };
  const view = async (id: string) => {
    const [shown] = await views([await load(id)]);
    if (!shown) throw notFound(COMMENT_TEXTS.notFound);
    return shown;
  };

  async function list(templateId: string, page: number, limit: number) {
    const filter = { templateId, deleted: false };
    const [docs, total] = await Promise.all([
      comments.find(filter, { sort: { createdAt: -1, _id: -1 }, skip: (page - 1) * limit, limit }),
      comments.countDocuments(filter),
    ]);
    return { comments: await views(docs), total };
  }

  async function add(user: { userId: string; role: Role }, templateId: string, message: string) {
    const post = await deps.posts.get(templateId);
    if (!post || (!post.status && user.role !== 'admin')) throw notFound(POST_NOT_FOUND);
    const author = await deps.directory.byId(user.userId);
    const refusal = commentRefusal({
      role: user.role,
      postType: post.type,
      commentsOn: await deps.settings.commentsVisible(),
      firstname: author?.firstname,
      lastname: author?.lastname,
    });
    if (refusal) throw refuse(refusal);
    const commentId = newId(deps.clock());
    await deps.events.append(
      commentStream(commentId),
      0,
      decideAddComment({ commentId, templateId, userId: user.userId, message }),
      { actor: user.userId },
    );
    return view(commentId);
  }

  async function edit(user: { userId: string }, id: string, message: string) {
    const doc = await load(id);
    if (!(await deps.settings.commentsVisible())) throw forbidden(COMMENT_TEXTS.off);
    const decided = decideEditComment(doc, { userId: user.userId, message });
    if (isRefusal(decided)) throw refuse(decided);
    await deps.events.append(commentStream(id), doc.version, decided, { actor: user.userId });
    return view(id);
  }

  async function remove(user: { userId: string; role: Role }, id: string) {
    const doc = await load(id);
    const decided = decideDeleteComment(doc, { userId: user.userId, role: user.role });
    if (isRefusal(decided)) throw refuse(decided);
    await deps.events.append(commentStream(id), doc.version, decided, { actor: user.userId });
  }

  return { list, add, edit, remove };
}

export type Comments = ReturnType<typeof createComments>;
