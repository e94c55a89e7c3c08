// Post detail rules (reader.md §2 Post detail, Premium gating texts, §6). Pure functions.
import { ApiError, isOutage } from '../../shared/http';
import type { EventLogEntry } from '../eventlog/api';
import type { PostAction, PostDetail } from './types';

export const PREMIUM = 1;
export const LOGIN_TO_READ = 'Please login to read more...';
export const UPGRADE_TO_READ = 'This is a premium post. Upgrade to read more.';

export type Role = 'user' | 'premium' | 'admin';

/**
 * What replaces the body. The server decides: a post that comes locked (or premium without a body) is gated, and the
 * reader is told why: not signed in, or role user (upgrade). A premium reader or admin should never get a locked
 * post; if one does (an expired token, say) the page says so plainly.
 */
export type PostGate = 'open' | 'login' | 'upgrade' | 'unavailable';

export function isLocked(post: Pick<PostDetail, 'locked' | 'type' | 'body'>): boolean {
  return post.locked === true || (post.type === PREMIUM && !post.body);
}

export function postGate(
  post: Pick<PostDetail, 'locked' | 'type' | 'body'>,
  isLogin: boolean,
  role: Role | null,
): PostGate {
  if (!isLocked(post)) return 'open';
  if (!isLogin) return 'login';
  if (role === 'user' || role === null) return 'upgrade';
  return 'unavailable';
}

/** reader.md §2: 'Back to all {plural post name}'. */
export const backLinkText = (plural: string): string => `Back to all ${plural}`;

export { bodyParagraphs } from '../../shared/bodyText';

/** The query of /post/{id} (reader.md §2): uid (a sign-in link), userid, and a=like or a=share. */
export interface PostQuery {
  uid: string | null;
  userid: string | null;
  action: PostAction | null;
}

export function readPostQuery(search: string): PostQuery {
  const params = new URLSearchParams(search);
  const a = params.get('a');
  return {
    uid: params.get('uid') || null,
    userid: params.get('userid') || null,
    action: a === 'like' || a === 'share' ? a : null,
  };
}

const LINK_PARAMS = ['uid', 'userid', 'a'];

/** The address without the link's parameters, so a reload neither spends the link again nor likes again. */
export function cleanPostPath(pathname: string, search: string, hash = ''): string {
  const params = new URLSearchParams(search);
  for (const name of LINK_PARAMS) params.delete(name);
  const rest = params.toString();
  return `${pathname}${rest ? `?${rest}` : ''}${hash}`;
}

export type PostEventType = 'web_like_click' | 'web_comment_click' | 'email_like_click';

/** An event of reader.md §7 about a post: the post id as value; the token only when there is one. */
export function postEvent(
  token: string | null,
  eventType: PostEventType,
  templateId: string,
  metadata: Record<string, string> = {},
): EventLogEntry {
  return { ...(token ? { token } : {}), eventType, eventValue: templateId, metadata };
}

/** The error view's line (reader.md §8: template load failure shows an error view). */
export function postFailureText(error: unknown, singular: string): string {
  if (error instanceof ApiError && error.status === 404) return `This ${singular} could not be found.`;
  if (!(error instanceof ApiError) || isOutage(error)) return `This ${singular} can't be loaded right now.`;
  return error.message || `This ${singular} can't be loaded right now.`;
}
