// Reading the history response (reader.md §3 history entry: type, status, createdAt). Pure.
import type { HistoryEntry } from '../progress/history';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The usable entries of a history response: objects with a numeric type and a createdAt that reads as a date.
 * Anything else is dropped rather than breaking the strip; `status` is kept only when it is a boolean.
 */
export function historyEntries(raw: unknown): HistoryEntry[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item): HistoryEntry[] => {
    if (!isRecord(item)) return [];
    const type = Number(item.type);
    const createdAt = item.createdAt;
    if (!Number.isFinite(type)) return [];
    if (typeof createdAt !== 'string' && typeof createdAt !== 'number') return [];
    if (Number.isNaN(new Date(createdAt).getTime())) return [];
    return [{ type, createdAt, ...(typeof item.status === 'boolean' ? { status: item.status } : {}) }];
  });
}

/** Our words when the history cannot be loaded (reader.md §8 logs the failure only; the strip is not shown). */
export const HISTORY_UNAVAILABLE = "Your reading history can't be loaded right now.";
