import { EngagementEvents, eventData, type Role } from '@nudge/contracts';
import { AppError, type Decider } from '@nudge/platform';

export const commentStream = (commentId: string) => `comment-${commentId}`;

export const COMMENT_TEXTS = {
  off: 'Comments are turned off',
  premiumOnly: 'Only premium readers can comment on premium posts.',
  needName: 'Please add your first and last name before commenting',
  notFound: 'Comment not found',
  notAuthor: 'You can only edit your own comments',
  notAuthorDelete: 'You can only delete your own comments',
} as const;

export type Refusal = { kind: 'forbidden' | 'bad_request' | 'not_found'; message: string };

/**
 * reader.md §5: commenting needs a signed-in reader (checked by the route), comments on in site settings, and a
 * free post, or a premium post with role premium, or role admin. The commenter must also have a first and a
 * last name (the web asks for them first).
 */
export function commentRefusal(input: {
  role: Role;
  postType: number;
  commentsOn: boolean;
  firstname: string | undefined;
  lastname: string | undefined;
}): Refusal | null {
  if (!input.commentsOn) return { kind: 'forbidden', message: COMMENT_TEXTS.off };
  if (input.postType === 1 && input.role !== 'premium' && input.role !== 'admin')
    return { kind: 'forbidden', message: COMMENT_TEXTS.premiumOnly };
  if (!input.firstname?.trim() || !input.lastname?.trim())
    return { kind: 'bad_request', message: COMMENT_TEXTS.needName };
  return null;
}

/** A comment as its stream folds; a deleted one stays deleted (its id cannot be used again). Null: never added. */
export type CommentState = {
  templateId: string;
  userId: string;
  message: string;
  deleted: boolean;
} | null;

export type CommentCommand =
  | { kind: 'add'; commentId: string; templateId: string; userId: string; message: string }
  | { kind: 'edit'; commentId: string; userId: string; message: string }
  | { kind: 'delete'; commentId: string; userId: string; role: Role };

const refused = (kind: 'forbidden' | 'not_found', message: string) => new AppError(kind, message);

/**
 * add: a comment id already used records nothing (a retried request with the same idempotency key); edit: only the
 * author, and an edit that changes nothing records nothing; delete: the author or an admin.
 */
export const commentDecider: Decider<CommentState, CommentCommand> = {
  initialState: null,
  evolve(state, event) {
    switch (event.type) {
      case EngagementEvents.CommentAdded.type: {
        const { templateId, userId, message } = eventData(EngagementEvents.CommentAdded, event);
        return { templateId, userId, message, deleted: false };
      }
      case EngagementEvents.CommentEdited.type:
        return state && { ...state, message: eventData(EngagementEvents.CommentEdited, event).message };
      case EngagementEvents.CommentDeleted.type:
        return state && { ...state, message: '', deleted: true };
      default:
        return state;
    }
  },
  decide(cmd, state) {
    if (cmd.kind === 'add') {
      if (state) return [];
      const { kind: _, ...data } = cmd;
      return [{ type: EngagementEvents.CommentAdded.type, data }];
    }
    if (!state || state.deleted) throw refused('not_found', COMMENT_TEXTS.notFound);
    const ids = { commentId: cmd.commentId, templateId: state.templateId, userId: state.userId };
    if (cmd.kind === 'edit') {
      if (state.userId !== cmd.userId) throw refused('forbidden', COMMENT_TEXTS.notAuthor);
      if (state.message === cmd.message) return [];
      return [{ type: EngagementEvents.CommentEdited.type, data: { ...ids, message: cmd.message } }];
    }
    if (state.userId !== cmd.userId && cmd.role !== 'admin')
      throw refused('forbidden', COMMENT_TEXTS.notAuthorDelete);
    return [{ type: EngagementEvents.CommentDeleted.type, data: { ...ids, by: cmd.userId } }];
  },
};
