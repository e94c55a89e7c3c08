import type { EventLogEntry } from './api';

/** The page_visit event of reader.md §7: the path as value, the full URL in the metadata. */
export const pageVisitEvent = (token: string | null, path: string, url: string): EventLogEntry => ({
  ...(token ? { token } : {}),
  eventType: 'page_visit',
  eventValue: path,
  metadata: { url },
});
