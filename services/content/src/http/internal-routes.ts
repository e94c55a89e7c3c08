import { RemindersPostsRequest } from '@nudge/contracts';
import { answerJson, parseBody, requireInternal } from '@nudge/platform';
import { Router } from 'express';
import type { SiteSettingsService } from '../app/site-settings';
import type { createTodayPost } from '../app/today-post';

/** Never routed by the gateway; refused without the internal service credential. */
export function internalRoutes(deps: {
  today: ReturnType<typeof createTodayPost>;
  settings: SiteSettingsService;
  internalToken: string;
}): Router {
  const router = Router();
  router.use('/internal', requireInternal(deps.internalToken));

  /** The reminder sender: today's post of each reader of a batch, gated, with Active subjects; and the settings. */
  router.post('/internal/reminders/posts', async (req, res) => {
    const { readers, recommendations } = parseBody(RemindersPostsRequest, req);
    const [settings, { posts, picks }] = await Promise.all([
      deps.settings.get(),
      deps.today.forReminders(readers, recommendations),
    ]);
    answerJson(res, { status: true, settings, posts, picks });
  });

  return router;
}
