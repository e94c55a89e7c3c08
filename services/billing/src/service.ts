import type { RenewalPlan, RenewalStep, RenewalStepResult } from '@nudge/contracts';
import {
  createHttpApp,
  type DocumentStore,
  errorHandler,
  finishApp,
  type Logger,
  type ServiceEventStore,
  type TokenVerifier,
  type UserDirectory,
} from '@nudge/platform';
import express, { type Express } from 'express';
import { createCheckout } from './app/checkout';
import { type BillingContext, simulatedCheckoutUrl } from './app/context';
import { createExpiry } from './app/expiry';
import { createTransactions } from './app/history';
import { createPremiumClaims } from './app/premium-claims';
import { createReceiptsProjection } from './app/receipts';
import { createRefunds, type ReconcileReport } from './app/refunds';
import { createRenewal } from './app/renewal';
import { createRenewalNotices, type NoticeMail } from './app/renewal-notices';
import { createRenewalWorkflows, type RenewalScheduler } from './app/renewal-workflows';
import { createSubscriptionRepository } from './app/subscription-repository';
import { createWebhookReceiver, type WebhookReceiver } from './app/webhooks';
import { RENEWAL_GRACE_MS } from './domain/plan';
import { decideImmediateCancel } from './domain/subscription';
import { createSubscriptionsProjection } from './events/subscriptions-projection';
import { eventHistoryRoutes } from './http/event-history-routes';
import { internalRoutes } from './http/internal-routes';
import { paymentRoutes } from './http/payment-routes';
import { privacyRoutes } from './http/privacy-routes';
import { simulatedRoutes } from './http/simulated-routes';
import { rawWebhookBody, WEBHOOK_PATH, webhookRoutes } from './http/webhook-routes';
import type { UserRecords } from './infra/auth-users';
import type { Payments } from './infra/open-payments';
import { signDelivery } from './infra/razorpay-webhooks';

/** Payments (provider, simulated checkout, keys, plan): see infra/open-payments.ts. */
export interface BillingServiceDeps extends Payments {
  store: DocumentStore;
  events: ServiceEventStore;
  log: Logger;
  verifier: TokenVerifier;
  /** Billing's copy of auth's users (roles for refusals, time zones for dates); fed by a consumer on auth's topic. */
  directory: UserDirectory;
  /** The full user for answers that return it; absent = answers leave `user` out. */
  users?: UserRecords;
  bodyLimit: string;
  /** TRUSTED_PROXIES: the gateway's addresses, whose X-Forwarded-For gives the client IP. Default loopback. */
  trustedProxies?: string[];
  /** Renewal notices (7 days before endAt): the mail sender, the site settings, the public site; absent = none. */
  notices?: NoticeMail;
  /** The credential of /internal routes (the scheduler, reporting's history read); absent = none served. */
  internalToken?: string;
  clock?: () => Date;
  /** Each subscription's renewal workflow (Temporal, or the embedded scheduler); absent = none is told. */
  renewals?: RenewalScheduler;
  /** RENEWAL_GRACE_HOURS in ms; default 48 hours. */
  renewalGraceMs?: number;
}

export interface BillingService {
  app: Express;
  /** Indexes and projection catch-up. Call once before serving. */
  start(): Promise<void>;
  /** Ends premium for subscriptions past their end without a renewal (tests and operators; no timer calls it). */
  expireDueSubscriptions(now: Date): Promise<string[]>;
  /**
   * One step of a subscription's renewal workflow (what POST /internal/subscriptions/renewal-step runs): the
   * notice 7 days before endAt, the simulated Razorpay's charge at endAt (embedded), or the expiry.
   */
  /**
   * Settles refunds left pending (the periodic job calls POST /internal/refunds/reconcile): see Refunds.reconcile.
   * A refund found made is recorded on its subscription (PaymentRefunded), as the cancel would have.
   */
  reconcileRefunds(): Promise<ReconcileReport>;
  renewalStep(step: RenewalStep): Promise<RenewalStepResult>;
  /** The subscription's renewal plan now (what its workflow waits for). */
  renewalPlan(subscriptionId: string): Promise<RenewalPlan>;
  webhooks: WebhookReceiver;
}

/** The billing service's composition: use cases, routes and read models over the ports it is given. */
export function createBillingService(deps: BillingServiceDeps): BillingService {
  const clock = deps.clock ?? (() => new Date());
  const projection = createSubscriptionsProjection(deps.store);
  deps.events.register(projection);
  deps.events.register(
    createReceiptsProjection({ directory: deps.directory, notices: deps.notices, clock, log: deps.log }),
  );
  const repo = createSubscriptionRepository(deps.store, deps.events);
  const users: UserRecords = deps.users ?? { get: async () => null };
  const ctx: BillingContext = {
    repo,
    provider: deps.provider,
    refunds: createRefunds({ store: deps.store, provider: deps.provider, log: deps.log, clock }),
    keyId: deps.keyId,
    planId: deps.planId,
    ...(deps.simulated
      ? { simulatedCheckoutUrl: (id: string) => simulatedCheckoutUrl(id, deps.webhookSecret) }
      : {}),
    clock,
    log: deps.log,
    timeZoneOf: async (userId) => (await deps.directory.byId(userId))?.timeZone,
  };
  const expiry = createExpiry(repo, deps.renewalGraceMs ?? RENEWAL_GRACE_MS);
  const notices = createRenewalNotices({
    store: deps.store,
    directory: deps.directory,
    notices: deps.notices,
  });
  const simulated = deps.simulated;
  const renewals = createRenewalWorkflows({
    repo,
    expiry,
    notices,
    scheduler: deps.renewals,
    log: deps.log,
    ...(simulated
      ? {
          provider: {
            nextDue: (ids) => simulated.nextDue(ids),
            async runDue(ids, now) {
              const due = await simulated.runDue(ids, now);
              for (const webhook of due) {
                const delivery = signDelivery(webhook, deps.webhookSecret);
                await webhooks.receive(Buffer.from(delivery.raw), delivery.signature, delivery.eventId);
              }
              return due.some((w) => w.event === 'subscription.charged');
            },
          },
        }
      : {}),
  });
  const webhooks = createWebhookReceiver({
    store: deps.store,
    repo,
    expiry,
    webhookSecret: deps.webhookSecret,
    clock,
    log: deps.log,
    onApplied: renewals.resync,
    claims: createPremiumClaims(ctx, deps.events),
  });
  /** A settled refund finishes its cancel as the reader's request would have: refunded, or cancelled without. */
  const reconcileRefunds = async () => {
    const report = await ctx.refunds.reconcile();
    const settled = [
      ...report.refunded.map(({ subscriptionId, userId: _, ...outcome }) => ({ subscriptionId, outcome })),
      ...report.failed.map(({ subscriptionId }) => ({ subscriptionId, outcome: null })),
    ];
    for (const { subscriptionId, outcome } of settled)
      await repo.update(subscriptionId, (s) => decideImmediateCancel(s, clock(), outcome), 'system');
    if (settled.length + report.retried.length > 0)
      deps.log.info(
        {
          refunded: report.refunded.map((r) => r.paymentId),
          failed: report.failed.map((r) => r.paymentId),
          retried: report.retried,
          pending: report.pending,
        },
        'refund reconciliation',
      );
    return report;
  };
  const inner = createHttpApp({
    log: deps.log,
    bodyLimit: deps.bodyLimit,
    ...(deps.trustedProxies ? { trustProxy: deps.trustedProxies } : {}),
  });
  inner.use(webhookRoutes(webhooks));
  inner.use(
    paymentRoutes({
      verifier: deps.verifier,
      directory: deps.directory,
      checkout: createCheckout(ctx),
      renewal: createRenewal({ ...ctx, keySecret: deps.keySecret }),
      repo,
      transactions: createTransactions(repo),
      users,
    }),
  );
  if (deps.simulated) {
    inner.use(
      simulatedRoutes({ simulated: deps.simulated, webhookSecret: deps.webhookSecret, clock, log: deps.log }),
    );
  }
  if (deps.internalToken) {
    inner.use(eventHistoryRoutes({ store: deps.store, internalToken: deps.internalToken }));
    inner.use(
      internalRoutes({ internalToken: deps.internalToken, renewalStep: renewals.step, reconcileRefunds }),
    );
    inner.use(privacyRoutes({ store: deps.store, internalToken: deps.internalToken }));
  }
  finishApp(inner, deps.log);

  // The webhook's raw bytes are read before the JSON parser of createHttpApp sees the request.
  const app = express();
  app.disable('x-powered-by');
  app.post(WEBHOOK_PATH, rawWebhookBody(deps.bodyLimit));
  app.use(inner);
  app.use(errorHandler(deps.log));

  return {
    app,
    webhooks,
    async start() {
      await projection.ensureIndexes();
      await deps.directory.ensureIndexes();
      await webhooks.ensureIndexes();
      await deps.events.catchUp();
      // In the background: Temporal may not answer yet (each failure is logged; the next start tries again).
      void renewals
        .resyncAll()
        .catch((err: unknown) => deps.log.error({ err }, 'renewal workflows not resynced at start'));
    },
    expireDueSubscriptions: (now) => expiry.expireDueSubscriptions(now),
    reconcileRefunds,
    renewalStep: renewals.step,
    renewalPlan: renewals.plan,
  };
}
