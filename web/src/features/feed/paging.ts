// Paging rules of the all-posts and liked-posts lists (reader.md §3 liked reminders state, §4 Feed, §7, §9). Pure.
import type { FeedPost } from './types';

/** Feed page size (reader.md §9). */
export const FEED_PAGE_SIZE = 5;
/** The first page asked for by scrolling: page 1 comes with the list itself (reader.md §3: likedpage starts at 2). */
export const FIRST_MORE_PAGE = 2;

/** POST /api/logs/getallpost?page={n}&limit=5[&topicId={id}] (reader.md §7); '' means every topic. */
export function allPostsPath(page: number, topicId: string): string {
  const query = new URLSearchParams({ page: String(page), limit: String(FEED_PAGE_SIZE) });
  if (topicId) query.set('topicId', topicId);
  return `/api/logs/getallpost?${query.toString()}`;
}

/** POST /api/like/getalllikedpost?page&limit=5 (reader.md §7). */
export const likedPostsPath = (page: number): string =>
  `/api/like/getalllikedpost?page=${page}&limit=${FEED_PAGE_SIZE}`;

/** Where a list stands after page `page` brought `received` posts: the page to ask for next, and whether to. */
export function afterPage(page: number, received: number): { nextPage: number; hasMore: boolean } {
  return { nextPage: page + 1, hasMore: received > 0 };
}

/**
 * The list with a new page added. Page 1 replaces the list. A post already shown is not shown twice (a post
 * published while reading moves the later pages by one, so the next page can repeat the last post).
 */
export function withPage(
  current: readonly FeedPost[],
  page: number,
  incoming: readonly FeedPost[],
): FeedPost[] {
  const base = page <= 1 ? [] : [...current];
  const seen = new Set(base.map((post) => post._id));
  for (const post of incoming) {
    if (seen.has(post._id)) continue;
    seen.add(post._id);
    base.push(post);
  }
  return base;
}

/** One entry of the liked-posts response: the like, with the post in templateDetails (reader.md §7). */
export interface LikedEntry {
  templateDetails?: FeedPost | null;
}

/** The posts of a liked-posts page; an entry whose post is gone (templateDetails missing) is skipped. */
export function likedPosts(entries: readonly LikedEntry[] | null | undefined): FeedPost[] {
  return (entries ?? []).flatMap((entry) =>
    entry?.templateDetails?._id ? [{ ...entry.templateDetails, like: true }] : [],
  );
}

/**
 * The liked list after the reader liked or unliked a post elsewhere (reader.md §4 Like: 'the liked list
 * follows'): a like puts the post first, an unlike takes it out.
 */
export function followLike(liked: readonly FeedPost[], post: FeedPost, like: boolean): FeedPost[] {
  const rest = liked.filter((entry) => entry._id !== post._id);
  return like ? [{ ...post, like: true }, ...rest] : rest;
}
