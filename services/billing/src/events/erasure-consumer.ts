import { ERASED_VALUE, ErasureEvents, eventData } from '@nudge/contracts';
import type { DocumentStore, EventHandler, UserDirectory } from '@nudge/platform';
import { subscriptionsCollection } from './subscriptions-projection';

/**
 * Auth's events as billing keeps them: the user directory, and on a reader's erasure their subscriptions' address
 * blanked (as a rebuild reads it once the key is forgotten). Payments stay as tax records: amounts, dates and ids.
 */
export function billingUserHandlers(
  store: DocumentStore,
  directory: UserDirectory,
): Record<string, EventHandler> {
  const directoryErased = directory.handlers[ErasureEvents.ReaderErased.type];
  return {
    ...directory.handlers,
    [ErasureEvents.ReaderErased.type]: async (event) => {
      const { userId } = eventData(ErasureEvents.ReaderErased, event);
      await subscriptionsCollection(store).updateMany({ userId }, { $set: { email: ERASED_VALUE } });
      await directoryErased?.(event);
    },
  };
}
