import { ContentEvents } from '@nudge/contracts';
import { newId, type ServiceEventStore } from '@nudge/platform';

/**
 * Records that a signed-in reader received a post's readable body (content.PostOpened.v1, one stream per read):
 * engagement builds reading history from these, content counts total_reads.
 */
export function createReads(deps: { events: ServiceEventStore; clock: () => Date }) {
  return {
    async opened(userId: string, templateId: string, type: 1 | 2): Promise<void> {
      const now = deps.clock();
      await deps.events.append(
        `read-${newId(now)}`,
        0,
        [
          {
            type: ContentEvents.PostOpened.type,
            data: { userId, templateId, type, openedAt: now.toISOString() },
          },
        ],
        { actor: userId },
      );
    },
  };
}

export type Reads = ReturnType<typeof createReads>;
