import { AddTopicRequest } from '@nudge/contracts';
import { claimsOf, requireRole } from '@nudge/platform';
import { Router } from 'express';
import type { Topics } from '../app/topics';
import { bodyOf } from './parse';

export function topicRoutes(topics: Topics): Router {
  const router = Router();

  router.get('/api/topic/getalltopics', async (_req, res) => {
    res.json({ status: true, topics: await topics.list() });
  });

  router.post('/api/topic/add', requireRole('admin'), async (req, res) => {
    const input = bodyOf(AddTopicRequest, req);
    const topic = await topics.add(input, claimsOf(req).userId);
    res.json({ status: true, message: 'New Topic Added Successfully', topic });
  });

  return router;
}
