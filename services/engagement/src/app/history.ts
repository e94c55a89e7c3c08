import { usableTimeZone } from '@nudge/contracts';
import type { UserDirectory } from '@nudge/platform';
import { readingDays } from '../domain/reading-days';
import type { ReadingHistory } from '../events/reading-history';

/** Everything the weekly strip, streak, 'Total read' and levels need (reader.md §2, §4). */
export function createHistory(deps: { reads: ReadingHistory; directory: UserDirectory; clock: () => Date }) {
  return {
    async forUser(userId: string) {
      const [reads, user] = await Promise.all([deps.reads.forUser(userId), deps.directory.byId(userId)]);
      const timeZone = usableTimeZone(user?.timeZone);
      const days = readingDays(
        reads.map((r) => r.createdAt),
        deps.clock(),
        timeZone,
      );
      return {
        history: reads.map((r) => ({
          _id: r._id,
          templateId: r.templateId,
          type: r.type,
          status: true as const,
          createdAt: r.createdAt,
        })),
        total: reads.length,
        timeZone,
        ...days,
      };
    },
  };
}

export type History = ReturnType<typeof createHistory>;
