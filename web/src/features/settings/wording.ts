import type { SiteSettings } from './types';

/** The feed tab labels built from the post wording (reader.md §2: Today's post, All posts, Liked posts). */
export function feedTabLabels(settings: Pick<SiteSettings, 'postsingular' | 'postplural'>) {
  return {
    today: `Today's ${settings.postsingular}`,
    all: `All ${settings.postplural}`,
    liked: `Liked ${settings.postplural}`,
  };
}

/** Where Sign Out leads: the feed (/) or the login screen, per the logoutredirect setting. */
export const signOutDestination = (logoutRedirect: SiteSettings['logoutredirect']): string =>
  logoutRedirect === 'feed' ? '/' : '/login';
