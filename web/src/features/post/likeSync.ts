// Like debounce rules (reader.md §4 Like, §9: 1500 ms). The like shows at once; the server is told immediately after
// the first click on a post and, on later clicks, once the reader has stopped clicking for 1.5 s. Pure functions: the
// saga (saga.ts) keeps the state and runs the timer.

export const LIKE_DEBOUNCE_MS = 1500;

export interface LikeSyncState {
  /** The post the clicks counted so far were on; a click on another post (or opening one) starts over. */
  templateId: string | null;
  clicks: number;
}

export const initialLikeSync: LikeSyncState = { templateId: null, clicks: 0 };

export type LikeSendPlan = 'sendNow' | 'sendAfterQuiet';

/** A click on the like control of `templateId`: the first one is sent at once, later ones after the quiet time. */
export function likeClick(
  state: LikeSyncState,
  templateId: string,
): { state: LikeSyncState; plan: LikeSendPlan } {
  const clicksBefore = state.templateId === templateId ? state.clicks : 0;
  return {
    state: { templateId, clicks: clicksBefore + 1 },
    plan: clicksBefore === 0 ? 'sendNow' : 'sendAfterQuiet',
  };
}

/**
 * After the quiet time: send only when the wanted status differs from the one the server last accepted (a like
 * toggled off and on again needs no call). `confirmed` null means unknown (the reader has left the post): send.
 */
export const needsSending = (wanted: boolean, confirmed: boolean | null): boolean => wanted !== confirmed;

/** The like state a reader sees: whether they like the post and its like count. */
export interface LikeView {
  like: boolean;
  totallikes: number;
}

/** The view with `like` set to `wanted`, the count following (never below 0). */
export function applyLike(view: LikeView, wanted: boolean): LikeView {
  if (view.like === wanted) return view;
  return { like: wanted, totallikes: Math.max(0, view.totallikes + (wanted ? 1 : -1)) };
}
