import { apiRequest } from '../../shared/http';
import type { FeedPost } from './types';

export const FEED_PAGE_SIZE = 5;

export const fetchAllPosts = (page: number, subscription: boolean) =>
  apiRequest<{
    templates: FeedPost[];
    topicCounts?: { _id: string; count: number }[];
    totalPostsCount?: number;
  }>('POST', `/api/logs/getallpost?page=${page}&limit=${FEED_PAGE_SIZE}`, { body: { subscription } });

export const fetchTodayPost = (token: string | null) =>
  apiRequest<{ status: boolean; template?: FeedPost | null; message?: string }>(
    'POST',
    '/api/logs/gettodaypost',
    {
      body: { token: token ?? undefined },
    },
  );

export const fetchLikedPosts = (page: number, token: string | null, subscription: boolean) =>
  apiRequest<{ templates: { templateDetails?: FeedPost | null }[] }>(
    'POST',
    `/api/like/getalllikedpost?page=${page}&limit=${FEED_PAGE_SIZE}`,
    { body: { subscription, token: token ?? undefined } },
  );

export const fetchProgress = (token: string | null) =>
  apiRequest<{ status: boolean; average: number; message?: string }>('POST', '/api/checkin/progress', {
    body: { token: token ?? undefined },
  });
