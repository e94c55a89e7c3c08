import { safeImageUrl } from '../../shared/safeUrl';
import { cssVariables } from './cssVariables';
import type { SiteSettings } from './types';

const DEFAULT_FAVICON = '/favicon.svg';

/** Puts the settings into the page: title, favicon, and the colours and fonts as CSS custom properties. */
export function applySettingsToDocument(settings: SiteSettings): void {
  document.title = settings.sitetitle;
  const favicon = document.querySelector<HTMLLinkElement>('link#favicon');
  if (favicon) {
    const href = safeImageUrl(settings.favicon) ?? DEFAULT_FAVICON;
    // Setting the same address again makes the browser fetch it again (a wasted request on the first load).
    if (favicon.getAttribute('href') !== href) favicon.href = href;
    if (href !== DEFAULT_FAVICON) favicon.removeAttribute('type');
  }
  const root = document.documentElement.style;
  for (const [name, value] of Object.entries(cssVariables(settings))) root.setProperty(name, value);
}
