import { safeImageUrl } from '../../shared/safeUrl';
import { cssVariables } from './cssVariables';
import type { SiteSettings } from './types';

/**
 * The icon index.html links, kept to put back when the settings name none. It is inline there (a data: URL of
 * web/public/favicon.svg, 0.2 KB): Chromium asks for a linked icon again on the client-side redirect to /login, so
 * the linked file cost two requests on the first load.
 */
let defaultFavicon: string | null | undefined;

/** Puts the settings into the page: title, favicon, and the colours and fonts as CSS custom properties. */
export function applySettingsToDocument(settings: SiteSettings): void {
  document.title = settings.sitetitle;
  const favicon = document.querySelector<HTMLLinkElement>('link#favicon');
  if (favicon) {
    if (defaultFavicon === undefined) defaultFavicon = favicon.getAttribute('href');
    const href = safeImageUrl(settings.favicon) ?? defaultFavicon ?? '/favicon.svg';
    // Setting the same address again makes the browser fetch it again (a wasted request on the first load).
    if (favicon.getAttribute('href') !== href) favicon.href = href;
    if (href !== defaultFavicon) favicon.removeAttribute('type');
    else favicon.setAttribute('type', 'image/svg+xml');
  }
  const root = document.documentElement.style;
  for (const [name, value] of Object.entries(cssVariables(settings))) root.setProperty(name, value);
}
