import { dayKey, usableTimeZone } from '@nudge/contracts';
import type { UserDirectory } from '@nudge/platform';
import { readingDays } from '../domain/reading-days';
import type { ReadingHistory } from '../events/reading-history';

/** Everything the weekly strip, streak, 'Total read' and levels need (reader.md §2, §4). */
export function createHistory(deps: { reads: ReadingHistory; directory: UserDirectory; clock: () => Date }) {
  return {
    async forUser(userId: string) {
      const [reads, user] = await Promise.all([deps.reads.forUser(userId), deps.directory.byId(userId)]);
      const timeZone = usableTimeZone(user?.timeZone);
      const entries = onePerPostPerDay(reads, timeZone);
      const days = readingDays(
        entries.map((r) => r.createdAt),
        deps.clock(),
        timeZone,
      );
      return {
        history: entries.map((r) => ({
          _id: r._id,
          templateId: r.templateId,
          type: r.type,
          status: true as const,
          createdAt: r.createdAt,
        })),
        /** Distinct posts read: opening a post again (a refresh, a second day) does not read more. */
        total: new Set(entries.map((r) => r.templateId)).size,
        timeZone,
        ...days,
      };
    },
  };
}

/**
 * The history a reader sees: one entry per post per calendar day in their time zone (the day's first open), newest
 * first. Every open stays recorded (content's PostOpened); opening a post twice in a day is one read.
 */
export function onePerPostPerDay<R extends { templateId: string; createdAt: string }>(
  newestFirst: readonly R[],
  timeZone: string,
): R[] {
  const keyOf = (read: R) => `${read.templateId}|${dayKey(new Date(read.createdAt), timeZone)}`;
  const kept = new Set<string>();
  const oldestFirst: R[] = [];
  for (let i = newestFirst.length - 1; i >= 0; i--) {
    const read = newestFirst[i] as R;
    const key = keyOf(read);
    if (kept.has(key)) continue;
    kept.add(key);
    oldestFirst.push(read);
  }
  return oldestFirst.reverse();
}

export type History = ReturnType<typeof createHistory>;
