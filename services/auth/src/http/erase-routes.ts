import { EraseSelfBody, IdParams } from '@nudge/contracts';
import { claimsOf, parseBody, parseParams, requireRole, requireUser } from '@nudge/platform';
import { Router } from 'express';
import type { Erasure } from '../app/erasure';

/**
 * Deleting an account: the reader their own (the token's user, never an id from the request), an admin any reader.
 * Mounted after userRoutes, whose authenticate() has read the caller.
 */
export function eraseRoutes(erasure: Erasure): Router {
  const router = Router();
  router.post('/api/user/deleteaccount', requireUser, async (req, res) => {
    parseBody(EraseSelfBody, req);
    await erasure.erase(claimsOf(req).userId, 'self', null);
    res.json({ status: true, message: 'Your account is deleted' });
  });
  router.post('/api/user/delete/:id', requireRole('admin'), async (req, res) => {
    const { id } = parseParams(IdParams, req);
    const outcome = await erasure.erase(id, 'admin', claimsOf(req).userId);
    res.json({
      status: true,
      message: outcome === 'erased' ? 'The account is deleted' : 'The account was already deleted',
    });
  });
  return router;
}
