import { apiRequest } from '../../shared/http';
import { allPostsPath, type LikedEntry, likedPostsPath } from './paging';
import type { TopicCount } from './topicChips';
import type { FeedPost } from './types';

/**
 * POST /api/logs/getallpost?page&limit=5[&topicId] { subscription } (reader.md §7), with the stored token (body and
 * Bearer header) so the server unlocks premium cards for premium readers and admins.
 */
export const fetchAllPosts = (page: number, topicId: string, subscription: boolean, token: string | null) =>
  apiRequest<{
    templates?: FeedPost[] | null;
    topicCounts?: TopicCount[] | null;
    totalPostsCount?: number | null;
  }>('POST', allPostsPath(page, topicId), {
    body: { subscription, token: token ?? undefined },
    token,
  });

/**
 * POST /api/logs/gettodaypost { token } -> { status, template, message }. `event: 'continue_reading'` (our addition)
 * marks an arrival from the reminder e-mail, which the server records as an e-mail read of the post.
 */
export const fetchTodayPost = (token: string | null, event?: 'continue_reading') =>
  apiRequest<{ status: boolean; template?: FeedPost | null; message?: string }>(
    'POST',
    '/api/logs/gettodaypost',
    { body: { token: token ?? undefined, ...(event ? { event } : {}) } },
  );

/** POST /api/like/getalllikedpost?page&limit=5 { subscription, token } -> { templates: [{ templateDetails }] }. */
export const fetchLikedPosts = (page: number, token: string | null, subscription: boolean) =>
  apiRequest<{ templates?: LikedEntry[] | null }>('POST', likedPostsPath(page), {
    body: { subscription, token: token ?? undefined },
  });

/** POST /api/checkin/progress { token } -> { status, average, message, answers }. */
export const fetchProgress = (token: string | null) =>
  apiRequest<{ status: boolean; average: number; message?: string; answers?: number }>(
    'POST',
    '/api/checkin/progress',
    { body: { token: token ?? undefined } },
  );
