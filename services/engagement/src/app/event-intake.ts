import { EngagementEvents } from '@nudge/contracts';
import { newId, type ServiceEventStore, type UserDirectory } from '@nudge/platform';

/** POST /api/eventlogs: one WebEvent per accepted event, for reporting's event log. */
export function createEventIntake(deps: {
  events: ServiceEventStore;
  directory: UserDirectory;
  clock: () => Date;
}) {
  return {
    async record(
      user: { userId: string; email: string } | undefined,
      event: { eventType: string; eventValue: string; metadata: Record<string, string> },
    ) {
      const now = deps.clock();
      const known = user ? await deps.directory.byId(user.userId) : null;
      await deps.events.append(
        `webevent-${newId(now)}`,
        0,
        [
          {
            type: EngagementEvents.WebEvent.type,
            data: {
              userId: user?.userId ?? null,
              userEmail: user ? (known?.email ?? user.email) : null,
              eventType: event.eventType,
              eventValue: event.eventValue,
              metadata: event.metadata,
              receivedAt: now.toISOString(),
            },
          },
        ],
        { actor: user?.userId ?? null },
      );
    },
  };
}

export type EventIntake = ReturnType<typeof createEventIntake>;
