import { type DocumentStore, requireInternal, userDataHandler, userDocuments } from '@nudge/platform';
import { Router } from 'express';
import { paymentHistory } from '../app/history';
import type { SubscriptionState } from '../domain/subscription';

/** The reader's data billing holds: subscriptions (with their payments and refunds) and the payments as a list. */
export function privacyRoutes(deps: { store: DocumentStore; internalToken: string }) {
  const router = Router();
  router.post(
    '/internal/privacy/user-data',
    requireInternal(deps.internalToken),
    userDataHandler(async (userId) => {
      const subscriptions = await userDocuments(deps.store, 'subscriptions', userId);
      const payments = paymentHistory(subscriptions as unknown as SubscriptionState[]);
      return [
        { name: 'subscriptions', rows: subscriptions },
        { name: 'payments', rows: payments.map((p) => ({ ...p })), csv: true },
      ];
    }),
  );
  return router;
}
