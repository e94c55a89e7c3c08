import { apiRequest } from '../../shared/http';

export interface EventLogEntry {
  token?: string;
  eventType: string;
  eventValue: string;
  metadata: Record<string, string>;
}

/** POST /api/eventlogs, with credentials (reader.md §7). */
export const sendEventLog = (entry: EventLogEntry) =>
  apiRequest<unknown>('POST', '/api/eventlogs', { body: entry, withCredentials: true, timeoutMs: 10_000 });
