import { PaymentConfirmRequest, PaymentTokenRequest, TransactionsQuery, type User } from '@nudge/contracts';
import {
  authenticate,
  claimsOf,
  createKeyedQueue,
  parseBody,
  parseQuery,
  requireRole,
  requireUser,
  type TokenVerifier,
  type UserDirectory,
} from '@nudge/platform';
import { type Response, Router } from 'express';
import { type Checkout, CheckoutRefusal } from '../app/checkout';
import { type createTransactions, paymentHistory } from '../app/history';
import type { Renewal } from '../app/renewal';
import type { SubscriptionRepository } from '../app/subscription-repository';
import type { UserRecords } from '../infra/auth-users';

/** The reader's and the admin's /api/payment calls (reader.md §7, admin.md Transactions). */
export function paymentRoutes(deps: {
  verifier: TokenVerifier;
  directory: UserDirectory;
  checkout: Checkout;
  renewal: Renewal;
  repo: SubscriptionRepository;
  transactions: ReturnType<typeof createTransactions>;
  users: UserRecords;
}): Router {
  const router = Router();
  const signedIn = [
    authenticate({ verifier: deps.verifier, currentUser: deps.directory.currentUser }),
    requireUser,
  ];
  // A double-clicked checkout or cancel does its provider calls once. A courtesy, not the guard of money: across pods,
  // the refund ledger (../app/refunds, unique per payment) makes a second refund impossible, and the event store's
  // expected versions refuse a second write.
  const perUser = createKeyedQueue();
  const withUser = async (userId: string): Promise<{ user?: User }> => {
    const user = await deps.users.get(userId);
    return user ? { user } : {};
  };

  router.post('/api/payment/checkout', ...signedIn, async (req, res: Response) => {
    parseBody(PaymentTokenRequest, req);
    const claims = claimsOf(req);
    try {
      const ticket = await perUser(claims.userId, () => deps.checkout.start(claims));
      res.json({
        status: true,
        subscription: { key: ticket.key, subscriptionId: ticket.subscriptionId },
        ...(await withUser(claims.userId)),
        ...(ticket.checkoutUrl ? { checkoutUrl: ticket.checkoutUrl } : {}),
      });
    } catch (err) {
      if (!(err instanceof CheckoutRefusal)) throw err;
      res
        .status(err.httpStatus)
        .json({ status: false, message: err.message, ...(await withUser(claims.userId)) });
    }
  });

  router.post('/api/payment/details', ...signedIn, async (req, res) => {
    parseBody(PaymentTokenRequest, req);
    res.json({ status: true, details: await deps.renewal.details(claimsOf(req).userId) });
  });

  router.post('/api/payment/cancel', ...signedIn, async (req, res) => {
    parseBody(PaymentTokenRequest, req);
    const { userId } = claimsOf(req);
    const change = await perUser(userId, () => deps.renewal.cancel(userId));
    res.json({ status: true, details: change.details, message: change.message });
  });

  router.post('/api/payment/restart', ...signedIn, async (req, res) => {
    parseBody(PaymentTokenRequest, req);
    const { userId, email } = claimsOf(req);
    const change = await perUser(userId, () => deps.renewal.restart({ userId, email }));
    res.json({
      status: true,
      details: change.details,
      message: change.message,
      ...(change.checkout
        ? {
            subscription: { key: change.checkout.key, subscriptionId: change.checkout.subscriptionId },
            ...(change.checkout.checkoutUrl ? { checkoutUrl: change.checkout.checkoutUrl } : {}),
          }
        : {}),
    });
  });

  router.post('/api/payment/confirm', ...signedIn, async (req, res) => {
    const body = parseBody(PaymentConfirmRequest, req);
    const { userId } = claimsOf(req);
    const result = await deps.renewal.confirm(userId, {
      paymentId: body.razorpay_payment_id,
      subscriptionId: body.razorpay_subscription_id,
      signature: body.razorpay_signature,
    });
    res.json({ status: true, ...result });
  });

  router.post('/api/payment/history', ...signedIn, async (req, res) => {
    parseBody(PaymentTokenRequest, req);
    res.json({ status: true, history: paymentHistory(await deps.repo.byUser(claimsOf(req).userId)) });
  });

  router.post(
    '/api/payment/alldata',
    authenticate({ verifier: deps.verifier, currentUser: deps.directory.currentUser }),
    requireRole('admin'),
    async (req, res) => {
      parseBody(PaymentTokenRequest, req);
      const page = await deps.transactions.page(parseQuery(TransactionsQuery, req));
      res.json({ status: true, ...page });
    },
  );

  return router;
}
