import { ApiError, isOutage } from '../../shared/http';
// Comment rules (reader.md §2 Comments, §5, §6, §9). Pure functions.
import type { PostComment } from './types';

/** Comments per page; the list shows 5 before 'Show more'. */
export const COMMENT_PAGE_SIZE = 5;
export const COMMENT_MAX_LENGTH = 5000;
export const NAME_REQUIRED = 'Please enter firstname';
export const NAME_UPDATED = 'Name updated successfully';

const PREMIUM = 1;

/**
 * reader.md §5: commenting needs login, the comments setting on, and a free post, or a premium post with role
 * premium, or role admin.
 */
export function canComment(input: {
  isLogin: boolean;
  commentsOn: boolean;
  postType: number;
  role: string | null | undefined;
}): boolean {
  if (!input.isLogin || !input.commentsOn) return false;
  if (input.role === 'admin') return true;
  if (input.postType === PREMIUM) return input.role === 'premium';
  return true;
}

/** The counter under the comment box: 'n/5000', red once the limit is reached. */
export function commentCounter(length: number): { text: string; atLimit: boolean } {
  return { text: `${length}/${COMMENT_MAX_LENGTH}`, atLimit: length >= COMMENT_MAX_LENGTH };
}

/** A comment can be sent when it has something besides spaces and is within the limit. */
export const canSendComment = (message: string): boolean =>
  message.trim() !== '' && message.length <= COMMENT_MAX_LENGTH;

export type NameFormErrors = Partial<Record<'firstname' | 'lastname', string>>;

/** reader.md §5: an empty first name, and an empty last name, both give 'Please enter firstname'. */
export function nameFormErrors(values: { firstname: string; lastname: string }): NameFormErrors {
  const errors: NameFormErrors = {};
  if (!values.firstname.trim()) errors.firstname = NAME_REQUIRED;
  if (!values.lastname.trim()) errors.lastname = NAME_REQUIRED;
  return errors;
}

/**
 * Whether 'Show more' is offered: the last page came back full, and (when the post's comment count is known) fewer
 * comments are loaded than it has.
 */
export function hasMoreComments(input: {
  lastPageSize: number;
  loaded: number;
  total?: number | null;
}): boolean {
  if (input.lastPageSize < COMMENT_PAGE_SIZE) return false;
  if (typeof input.total === 'number') return input.loaded < input.total;
  return true;
}

/** A page appended to the list; a comment already shown (one just added moves the pages) is not repeated. */
export function appendPage(shown: PostComment[], page: PostComment[]): PostComment[] {
  const ids = new Set(shown.map((comment) => comment._id));
  return [...shown, ...page.filter((comment) => !ids.has(comment._id))];
}

/**
 * reader.md §6: edit/delete only on the signed-in reader's own comments. The server marks them (`mine`, from the
 * session), so no author's address has to reach the browser.
 */
export function isOwnComment(comment: PostComment, isLogin: boolean): boolean {
  return isLogin && comment.mine === true;
}

/** What a failed add, edit or delete tells the reader: the server's refusal, or that it did not get through. */
export function commentFailureText(what: 'sent' | 'updated' | 'deleted', error: unknown): string {
  const reason = error instanceof ApiError && !isOutage(error) && error.message ? ` ${error.message}` : '';
  return `Your comment wasn't ${what}.${reason || ' Please check your connection and try again.'}`;
}

/** The author's name as shown; 'Anonymous' when the author has none. */
export function commentAuthorName(details: PostComment['userDetails']): string {
  const name = `${details?.firstname?.trim() ?? ''} ${details?.lastname?.trim() ?? ''}`.trim();
  return name || 'Anonymous';
}

const LONG_DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });

/** reader.md §9: dates in en-GB long form ('5 March 2024'); '' for a missing or unreadable date. */
export function formatCommentDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : LONG_DATE.format(date);
}
