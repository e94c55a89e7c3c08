import { EngagementEvents, type Role } from '@nudge/contracts';
import type { DecidedEvent } from './likes';

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

export interface CommentState {
  _id: string;
  templateId: string;
  userId: string;
  deleted: boolean;
  version: number;
}

export const decideAddComment = (cmd: {
  commentId: string;
  templateId: string;
  userId: string;
  message: string;
}): DecidedEvent[] => [{ type: EngagementEvents.CommentAdded.type, data: cmd }];

/** Only the author edits; an edit that changes nothing records nothing. */
export function decideEditComment(
  state: CommentState & { message: string },
  cmd: { userId: string; message: string },
): DecidedEvent[] | Refusal {
  if (state.deleted) return { kind: 'not_found', message: COMMENT_TEXTS.notFound };
  if (state.userId !== cmd.userId) return { kind: 'forbidden', message: COMMENT_TEXTS.notAuthor };
  if (state.message === cmd.message) return [];
  return [
    {
      type: EngagementEvents.CommentEdited.type,
      data: {
        commentId: state._id,
        templateId: state.templateId,
        userId: state.userId,
        message: cmd.message,
      },
    },
  ];
}

/** The author or an admin deletes. */
export function decideDeleteComment(
  state: CommentState,
  cmd: { userId: string; role: Role },
): DecidedEvent[] | Refusal {
  if (state.deleted) return { kind: 'not_found', message: COMMENT_TEXTS.notFound };
  if (state.userId !== cmd.userId && cmd.role !== 'admin')
    return { kind: 'forbidden', message: COMMENT_TEXTS.notAuthorDelete };
  return [
    {
      type: EngagementEvents.CommentDeleted.type,
      data: { commentId: state._id, templateId: state.templateId, userId: state.userId, by: cmd.userId },
    },
  ];
}

export const isRefusal = (value: DecidedEvent[] | Refusal): value is Refusal => !Array.isArray(value);
