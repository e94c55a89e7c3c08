import { EngagementPageQuery, LikeAddRequest, LikedPostsRequest } from '@nudge/contracts';
import { claimsOf, parseBody, parseQuery, requireUser } from '@nudge/platform';
import { Router } from 'express';
import type { Likes } from '../app/likes';

export function likeRoutes(deps: { likes: Likes }): Router {
  const router = Router();

  router.post('/api/like/add', requireUser, async (req, res) => {
    const { templateid, status } = parseBody(LikeAddRequest, req);
    const result = await deps.likes.setLike(claimsOf(req), templateid, status);
    res.json({ status: true, ...result });
  });

  router.post('/api/like/getalllikedpost', requireUser, async (req, res) => {
    const { page, limit } = parseQuery(EngagementPageQuery, req);
    parseBody(LikedPostsRequest, req);
    res.json({ status: true, templates: await deps.likes.likedPage(claimsOf(req), page, limit) });
  });

  return router;
}
