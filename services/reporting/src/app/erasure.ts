import { ErasureEvents, eventData } from '@nudge/contracts';
import type { EventHandler, UserDirectory } from '@nudge/platform';
import type { AnalyticsStore } from '../analytics';

/**
 * Auth's events as reporting keeps them: the user directory, and on a reader's erasure their address taken out of the
 * analytics rows (rows keep the reader's opaque id, so counts and reports stay whole). Event data in ClickHouse holds
 * personal fields sealed, unreadable once the key is forgotten; the `user_email` column was copied in plain from the
 * directory, so it is blanked here (a mutation, waited for), and the registrations table's row deleted.
 */
export function reportingUserHandlers(
  directory: UserDirectory,
  analytics: AnalyticsStore,
): Record<string, EventHandler> {
  const directoryErased = directory.handlers[ErasureEvents.ReaderErased.type];
  return {
    ...directory.handlers,
    [ErasureEvents.ReaderErased.type]: async (event) => {
      const { userId } = eventData(ErasureEvents.ReaderErased, event);
      await analytics.exec(
        "ALTER TABLE events UPDATE user_email = '' WHERE user_id = {userId:String} SETTINGS mutations_sync = 1",
        { userId },
      );
      await analytics.exec('DELETE FROM users WHERE user_id = {userId:String}', { userId });
      await directoryErased?.(event);
    },
  };
}
