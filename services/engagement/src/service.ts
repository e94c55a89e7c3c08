import {
  authenticate,
  createHttpApp,
  createUserDirectory,
  type DocumentStore,
  type EventHandler,
  errorHandler,
  finishApp,
  type Logger,
  type ServiceEventStore,
  type TokenVerifier,
  trackingSecret,
  type UserDirectory,
} from '@nudge/platform';
import express, { type Express } from 'express';
import { createCheckinQuestions } from './app/checkin-questions';
import { createCheckins } from './app/checkins';
import { createComments } from './app/comments';
import { createCounts } from './app/counts';
import { createHistory } from './app/history';
import { createLikes } from './app/likes';
import { createReminders } from './app/reminders';
import { createSuppressions } from './app/suppressions';
import { createPostsCopy } from './events/posts-copy';
import { createReadModels } from './events/read-models';
import { createReadingHistory } from './events/reading-history';
import { createSiteSettingsCopy } from './events/site-settings-copy';
import { createSuppressionsProjection } from './events/suppressions-projection';
import { checkinRoutes } from './http/checkin-routes';
import { commentRoutes } from './http/comment-routes';
import {
  DELIVERY_WEBHOOK_PATHS,
  type DeliveryWebhookSettings,
  deliveryWebhookRoutes,
  rawDeliveryWebhookBodies,
} from './http/delivery-webhook-routes';
import { eventHistoryRoutes } from './http/event-history-routes';
import { historyRoutes } from './http/history-routes';
import { internalRoutes } from './http/internal-routes';
import { likeRoutes } from './http/like-routes';
import { privacyRoutes } from './http/privacy-routes';
import { reminderRoutes } from './http/reminder-routes';
import { suppressionRoutes } from './http/suppression-routes';
import type { AuthSessions } from './infra/auth-client';

/** The largest batch of reminder sends the workflows record at once (1,000 sends, with room to spare). */
const RECORD_SENDS_BODY_LIMIT = '2mb';
export interface EngagementServiceDeps {
  store: DocumentStore;
  events: ServiceEventStore;
  /** Verifies session tokens with auth's public key. */
  verifier: TokenVerifier;
  /** Mints sessions for check-in answers (auth's internal route). */
  auth: AuthSessions;
  /** The credential callers present on /internal routes. */
  internalToken: string;
  log: Logger;
  /** Where check-in answer links point (PUBLIC_URL). */
  publicUrl: string;
  bodyLimit: string;
  /** TRUSTED_PROXIES: the gateway's addresses, whose X-Forwarded-For gives the client IP. Default loopback. */
  trustedProxies?: string[];
  checkinLinkTtlDays: number;
  /** Soft bounces that suppress an address: `limit` within `days` days. */
  softBounces?: { limit: number; days: number };
  /** Mail providers' bounce and complaint webhooks (each off until configured). */
  deliveryWebhooks?: DeliveryWebhookSettings;
  clock?: () => Date;
}

export interface EngagementService {
  app: Express;
  /** Handlers for the consumer of auth's and content's topics (see events/consumer.ts). All idempotent. */
  handlers: Record<string, EventHandler>;
  /** The handlers' types that tolerate a repeated or late delivery (the consumer records no processed id for them). */
  idempotentTypes: readonly string[];
  directory: UserDirectory;
  /** Indexes and projection catch-up. Call once before serving. */
  start(): Promise<void>;
}

/** The engagement service's composition: read models, use cases and routes over the ports it is given. */
export function createEngagementService(deps: EngagementServiceDeps): EngagementService {
  const clock = deps.clock ?? (() => new Date());
  const { store, events } = deps;

  const readModels = createReadModels(store);
  events.register(readModels);
  const suppressionsProjection = createSuppressionsProjection(store);
  events.register(suppressionsProjection);

  const directory = createUserDirectory(store);
  const posts = createPostsCopy(store);
  const settings = createSiteSettingsCopy(store);
  const reads = createReadingHistory(store);

  const counts = createCounts(store);
  const likes = createLikes({ store, events, posts, counts });
  const comments = createComments({ store, events, posts, settings, directory, clock, auth: deps.auth });
  const history = createHistory({ reads, directory, clock });
  const questions = createCheckinQuestions({ store, events, clock });
  const checkins = createCheckins({
    store,
    events,
    auth: deps.auth,
    clock,
    publicUrl: deps.publicUrl,
    linkTtlDays: deps.checkinLinkTtlDays,
  });
  const reminders = createReminders({
    store,
    events,
    trackingSecret: trackingSecret(deps.internalToken),
    clock,
  });

  const suppressions = createSuppressions({
    store,
    events,
    clock,
    softBounces: deps.softBounces ?? { limit: 3, days: 7 },
  });

  const app = createHttpApp({
    log: deps.log,
    bodyLimit: deps.bodyLimit,
    // A batch of up to 1,000 sends (REMINDER_BATCH_SIZE) is about 400 KB: above BODY_LIMIT's default of 100 KB.
    largeBodies: [
      { route: 'POST /internal/reminders/sent', limit: RECORD_SENDS_BODY_LIMIT },
      { route: 'POST /internal/reminders/claim', limit: RECORD_SENDS_BODY_LIMIT },
    ],
    ...(deps.trustedProxies ? { trustProxy: deps.trustedProxies } : {}),
  });
  app.use(authenticate({ verifier: deps.verifier, currentUser: directory.currentUser }));
  app.use(likeRoutes({ likes }));
  app.use(commentRoutes({ comments }));
  app.use(historyRoutes({ history }));
  app.use(checkinRoutes({ questions, checkins }));
  app.use(reminderRoutes({ reminders, publicUrl: deps.publicUrl }));
  app.use(internalRoutes({ checkins, reminders, internalToken: deps.internalToken }));
  app.use(privacyRoutes({ store, checkins, internalToken: deps.internalToken }));
  app.use(suppressionRoutes({ suppressions, internalToken: deps.internalToken }));
  app.use(eventHistoryRoutes({ store, internalToken: deps.internalToken }));
  app.use(deliveryWebhookRoutes({ suppressions, settings: deps.deliveryWebhooks ?? {} }));
  finishApp(app, deps.log);

  // The webhooks' raw bytes are read before the JSON parser of createHttpApp sees the request.
  const outer = express();
  outer.disable('x-powered-by');
  outer.post(Object.values(DELIVERY_WEBHOOK_PATHS), rawDeliveryWebhookBodies(deps.bodyLimit));
  outer.use(app);
  outer.use(errorHandler(deps.log));

  return {
    app: outer,
    handlers: { ...directory.handlers, ...posts.handlers, ...settings.handlers, ...reads.handlers },
    // A read is stored under its event's id: a repeat writes the same document again.
    idempotentTypes: Object.keys(reads.handlers),
    directory,
    async start() {
      await readModels.ensureIndexes();
      await suppressionsProjection.ensureIndexes();
      await Promise.all([
        directory.ensureIndexes(),
        posts.ensureIndexes(),
        reads.ensureIndexes(),
        reminders.ensureIndexes(),
      ]);
      await events.catchUp();
    },
  };
}
