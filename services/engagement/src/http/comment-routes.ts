import {
  CommentAddRequest,
  CommentDeleteRequest,
  CommentEditRequest,
  CommentsParams,
  CommentsQuery,
  IdempotencyKeyHeader,
} from '@nudge/contracts';
import { claimsOf, parseBody, parseHeaders, parseParams, parseQuery, requireUser } from '@nudge/platform';
import { Router } from 'express';
import type { Comments } from '../app/comments';
import { parseExact } from './validate';

export function commentRoutes(deps: { comments: Comments }): Router {
  const router = Router();

  router.get('/api/comment/comments/:templateId', async (req, res) => {
    const { templateId } = parseParams(CommentsParams, req);
    const { page, limit } = parseQuery(CommentsQuery, req);
    const viewer = req.auth ? { userId: req.auth.userId, role: req.auth.role } : {};
    res.json({ status: true, ...(await deps.comments.list(templateId, page, limit, viewer)) });
  });

  router.post('/api/comment/add', requireUser, async (req, res) => {
    const { templateid, message } = parseExact(CommentAddRequest, req.body);
    const key = parseHeaders(IdempotencyKeyHeader, req)['idempotency-key'];
    res.json({ status: true, comment: await deps.comments.add(claimsOf(req), templateid, message, key) });
  });

  router.post('/api/comment/edit', requireUser, async (req, res) => {
    const { id, comment } = parseExact(CommentEditRequest, req.body);
    res.json({ status: true, comment: await deps.comments.edit(claimsOf(req), id, comment) });
  });

  router.post('/api/comment/delete', requireUser, async (req, res) => {
    const { id } = parseBody(CommentDeleteRequest, req);
    await deps.comments.remove(claimsOf(req), id);
    res.json({ status: true });
  });

  return router;
}
