import { AddPromotionRequest, ContentIdParams, UpdatePromotionRequest } from '@nudge/contracts';
import { claimsOf, requireRole } from '@nudge/platform';
import { Router } from 'express';
import type { Promotions } from '../app/promotions';
import { bodyOf, paramsOf } from './parse';

export function promotionRoutes(promotions: Promotions): Router {
  const router = Router();
  const admins = requireRole('admin');

  router.get('/api/promotion/active', async (_req, res) => {
    res.json({ status: true, promotions: await promotions.live() });
  });

  router.get('/api/promotion/all', admins, async (_req, res) => {
    res.json({ status: true, data: await promotions.all() });
  });

  router.post('/api/promotion/add', admins, async (req, res) => {
    const input = bodyOf(AddPromotionRequest, req);
    const promotion = await promotions.add(input, claimsOf(req).userId);
    res.json({ status: true, promotion, message: 'Promotion Added Successfully' });
  });

  router.get('/api/promotion/details/:id', admins, async (req, res) => {
    const { id } = paramsOf(ContentIdParams, req);
    res.json({ status: true, promotion: await promotions.details(id) });
  });

  router.post('/api/promotion/update/:id', admins, async (req, res) => {
    const { id } = paramsOf(ContentIdParams, req);
    const { info } = bodyOf(UpdatePromotionRequest, req);
    const promotion = await promotions.update(id, info, claimsOf(req).userId);
    res.json({ status: true, promotion, message: 'Promotion Edit Successfully' });
  });

  return router;
}
