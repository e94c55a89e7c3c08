import type { EventLogEntry } from './api';

/**
 * Query parameters that are credentials (e-mail sign-in links, check-in answers); the event log is read by admins
 * and exported as CSV, so they are replaced before a URL is logged.
 */
const CREDENTIAL_PARAMS = ['uid', 'qlid', 'token'];

/** The URL with credential query parameters redacted, and the path of unsubscribe links (a token) too. */
export function loggableUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  for (const name of CREDENTIAL_PARAMS)
    if (parsed.searchParams.has(name)) parsed.searchParams.set(name, 'redacted');
  parsed.pathname = loggablePath(parsed.pathname);
  return parsed.toString();
}

export const loggablePath = (path: string): string =>
  path.replace(/^\/unsubscribe\/[^/]+/, '/unsubscribe/redacted');

/** An event about arriving at a page: the path as value, the full URL (credentials redacted) in the metadata. */
export const navigationEvent = (
  eventType: string,
  token: string | null,
  path: string,
  url: string,
): EventLogEntry => ({
  ...(token ? { token } : {}),
  eventType,
  eventValue: loggablePath(path),
  metadata: { url: loggableUrl(url) },
});

/** The page_visit event of reader.md §7. */
export const pageVisitEvent = (token: string | null, path: string, url: string): EventLogEntry =>
  navigationEvent('page_visit', token, path, url);
