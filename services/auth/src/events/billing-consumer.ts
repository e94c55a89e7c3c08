import { BillingEvents, eventData } from '@nudge/contracts';
import type { DocumentStore, EventEnvelope, EventHandler } from '@nudge/platform';
import { z } from 'zod';
import type { UserRepository } from '../app/user-repository';
import { decideRoleChange } from '../domain/user';

/** Per user, which of their subscriptions currently grant premium, as billing last said (per subscription stream). */
type EntitlementDoc = {
  _id: string;
  /** Moves with every change of `subscriptions`: a role decided on an older revision is decided again. */
  rev?: number;
  subscriptions: Record<string, { entitled: boolean; version: number; type: string }>;
};

export const BILLING_ENTITLEMENTS = 'billing_entitlements';

const SUBSCRIPTION_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** What every subscription event carries (the consumer already parsed the whole event with its contract). */
const SubscriptionRef = z.object({ userId: z.string(), subscriptionId: z.string().regex(SUBSCRIPTION_ID) });

/**
 * Role follows payment (billing's events on topicFor('billing'), consumer group 'auth'): a reader with any
 * subscription granting premium is premium, one with none is user again; an admin stays admin, and a role set to
 * anything else by hand is left alone. Each subscription's last word is kept by stream version, so redelivered or
 * stale events change nothing, and events of two subscriptions (a restart: the old one expiring, the new one
 * activating) may arrive in either order.
 */
export function createBillingHandlers(deps: { store: DocumentStore; users: UserRepository }) {
  const entitlements = deps.store.collection<EntitlementDoc>(BILLING_ENTITLEMENTS);

  async function note(event: EventEnvelope, userId: string, subscriptionId: string, entitled: boolean) {
    const doc = await entitlements.findOne({ _id: userId });
    const seen = doc?.subscriptions[subscriptionId];
    if (seen && seen.version >= event.version) return;
    await entitlements.updateOne(
      { _id: userId },
      {
        $set: { [`subscriptions.${subscriptionId}`]: { entitled, version: event.version, type: event.type } },
        $inc: { rev: 1 },
      },
      { upsert: true },
    );
  }

  /**
   * Sets the role from the reader's entitlements. Another replica may note another subscription of the reader between
   * this read and the role's change, and find the role already right before this change lands (an old subscription
   * expiring here, a new one activating there): so the entitlements are read again after the change, and the role
   * decided again until they did not move meanwhile.
   */
  async function reconcile(userId: string) {
    for (;;) {
      const doc = await entitlements.findOne({ _id: userId });
      const premium = Object.values(doc?.subscriptions ?? {}).some((s) => s.entitled);
      await deps.users.update(
        userId,
        (user) => {
          const change =
            premium && user.role === 'user' ? 'premium' : !premium && user.role === 'premium' ? 'user' : null;
          return change ? decideRoleChange(user, change, 'billing') : [];
        },
        'system',
      );
      const after = await entitlements.findOne({ _id: userId });
      if ((after?.rev ?? 0) === (doc?.rev ?? 0)) return;
    }
  }

  /** `entitled` null: the event changes nothing about premium (renewal turned off; premium runs to endAt). */
  const on =
    (entitled: (event: EventEnvelope) => boolean | null): EventHandler =>
    async (event) => {
      const ids = SubscriptionRef.safeParse(event.data);
      if (!ids.success) return;
      const { userId, subscriptionId } = ids.data;
      const value = entitled(event);
      if (value === null) return;
      await note(event, userId, subscriptionId, value);
      await reconcile(userId);
    };

  const handlers: Record<string, EventHandler> = {
    [BillingEvents.SubscriptionActivated.type]: on(() => true),
    [BillingEvents.SubscriptionRenewed.type]: on(() => true),
    [BillingEvents.SubscriptionExpired.type]: on(() => false),
    [BillingEvents.SubscriptionCancelled.type]: on((event) =>
      eventData(BillingEvents.SubscriptionCancelled, event).immediate ? false : null,
    ),
  };
  return handlers;
}
