import { SiteSettingsResponse } from '@nudge/contracts';
import { createInternalClient } from '@nudge/platform';
import type { NoticeSettings } from '../app/renewal-notices';

/** content's public route: no internal credential. */
const publicRoutes = createInternalClient({});

/**
 * The site settings as content serves them (GET /api/sitesettings/fetch, every field filled with its default), for
 * the renewal notice's logo, colours and subject prefix. Asked per notice (a few a day): no copy to keep in step.
 * Throws when content is not configured or does not answer, so the notice step fails and its workflow retries it
 * rather than mailing a notice in the wrong dress.
 */
export function createContentSiteSettings(opts: {
  /** Read at call time: the standalone process fills the service URLs in as the services start. */
  contentUrl: () => string | undefined;
  timeoutMs?: number;
}): () => Promise<NoticeSettings> {
  return async () => {
    const base = opts.contentUrl();
    if (!base)
      throw new Error('the renewal notice needs the site settings, and no content service is configured');
    const { status, body } = await publicRoutes.exchange(base, '/api/sitesettings/fetch', {
      headers: { accept: 'application/json' },
      timeoutMs: opts.timeoutMs ?? 3000,
    });
    if (status < 200 || status >= 300)
      throw new Error(`content answered ${status} to the site settings fetch`);
    return SiteSettingsResponse.parse(body).settings;
  };
}
