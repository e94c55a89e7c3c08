import { apiRequest } from '../../shared/http';
import { createEventBatcher } from './batcher';

export interface EventLogEntry {
  token?: string;
  eventType: string;
  eventValue: string;
  metadata: Record<string, string>;
}

const post = (batch: { token?: string; events: Omit<EventLogEntry, 'token'>[] }) =>
  apiRequest<unknown>('POST', '/api/eventlogs', { body: batch, withCredentials: true, timeoutMs: 10_000 });

const beacon = (batch: object): boolean =>
  typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function'
    ? navigator.sendBeacon('/api/eventlogs', new Blob([JSON.stringify(batch)], { type: 'application/json' }))
    : false;

const batcher = createEventBatcher({ send: post, beacon });
if (typeof document !== 'undefined')
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') batcher.flushOnHide();
  });

/**
 * POST /api/eventlogs (reader.md §7): events are batched (`{ token, events }`, up to 50, at most 2 s late) and the
 * rest goes with navigator.sendBeacon when the page is hidden.
 */
export const sendEventLog = async (entry: EventLogEntry): Promise<void> => {
  batcher.add(entry);
};
