import {
  FeedQuery,
  FeedRequest,
  PostParams,
  PostRequest,
  RecommendationsQuery,
  RecommendationsRequest,
  TodayPostRequest,
} from '@nudge/contracts';
import { claimsOf, requireUser } from '@nudge/platform';
import { Router } from 'express';
import type { ReaderPosts } from '../app/reader-posts';
import type { createTodayPost } from '../app/today-post';
import { bodyOf, paramsOf, queryOf } from './parse';
import { viewerOf } from './viewer';

/** reader.md §7 feed calls, the post, and our recommendations call. Gating follows the token, never `subscription`. */
export function readerRoutes(deps: {
  posts: ReaderPosts;
  today: ReturnType<typeof createTodayPost>;
}): Router {
  const { posts, today } = deps;
  const router = Router();

  router.post('/api/logs/getallpost', async (req, res) => {
    const query = queryOf(FeedQuery, req);
    bodyOf(FeedRequest, req);
    res.json({ status: true, ...(await posts.feed(viewerOf(req), query)) });
  });

  router.post('/api/logs/gettodaypost', requireUser, async (req, res) => {
    const { event } = bodyOf(TodayPostRequest, req);
    const claims = claimsOf(req);
    res.json(await today.forUser(claims.userId, claims.role, event));
  });

  router.post('/api/template/recommendations/:id', async (req, res) => {
    const { id } = paramsOf(PostParams, req);
    const { page, limit } = queryOf(RecommendationsQuery, req);
    bodyOf(RecommendationsRequest, req);
    res.json({ status: true, ...(await posts.recommendations(id, viewerOf(req), page, limit)) });
  });

  router.post('/api/template/:id', async (req, res) => {
    const { id } = paramsOf(PostParams, req);
    bodyOf(PostRequest, req);
    res.json({ status: true, template: await posts.post(id, viewerOf(req)) });
  });

  return router;
}
