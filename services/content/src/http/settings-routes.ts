import { UpdateSiteSettingsRequest } from '@nudge/contracts';
import { claimsOf, requireRole } from '@nudge/platform';
import { Router } from 'express';
import type { SiteSettingsService } from '../app/site-settings';
import { bodyOf } from './parse';

export function settingsRoutes(settings: SiteSettingsService): Router {
  const router = Router();

  router.get('/api/sitesettings/fetch', async (_req, res) => {
    res.json({ status: true, settings: await settings.get() });
  });

  router.put('/api/sitesettings/update', requireRole('admin'), async (req, res) => {
    const { settings: changes } = bodyOf(UpdateSiteSettingsRequest, req);
    res.json({ status: true, settings: await settings.update(changes, claimsOf(req).userId) });
  });

  return router;
}
