import { largeBodyRoutes } from '@nudge/contracts';
import {
  authenticate,
  createHttpApp,
  createUserDirectory,
  type DocumentStore,
  type EmailStatsReader,
  type EventHandler,
  finishApp,
  type Logger,
  type ServiceEventStore,
  type TokenVerifier,
  type UserDirectory,
} from '@nudge/platform';
import type { ErrorRequestHandler, Express } from 'express';
import { createAiWriter } from './app/ai-writer';
import { createFeedOrder } from './app/feed-order';
import { createImageIntake } from './app/images';
import { createMediaDelivery } from './app/media-delivery';
import { createPostViews } from './app/post-views';
import { createPromotions } from './app/promotions';
import { createReaderPosts } from './app/reader-posts';
import { createReads } from './app/reads';
import { createSiteSettings } from './app/site-settings';
import { createTemplates } from './app/templates';
import { createTodayPost } from './app/today-post';
import { createTopics } from './app/topics';
import { contentCollections, ensureContentIndexes } from './events/collections';
import { engagementHandlers } from './events/engagement-handlers';
import { createContentReadModels } from './events/read-models';
import { eventHistoryRoutes } from './http/event-history-routes';
import { internalRoutes } from './http/internal-routes';
import { mediaRoutes } from './http/media-routes';
import { privacyRoutes } from './http/privacy-routes';
import { promotionRoutes } from './http/promotion-routes';
import { readerRoutes } from './http/reader-routes';
import { settingsRoutes } from './http/settings-routes';
import { templateAdminRoutes } from './http/template-admin-routes';
import { topicRoutes } from './http/topic-routes';
import { createResizer, inspectImage } from './infra/images';
import type { MediaStore } from './infra/media';
import { createOpenAiWriter, type WriterOptions } from './infra/openai-writer';

export interface ContentServiceDeps {
  store: DocumentStore;
  events: ServiceEventStore;
  media: MediaStore;
  verifier: TokenVerifier;
  /** The credential callers present on /internal routes (the reminder sender, reporting's history read). */
  internalToken: string;
  log: Logger;
  /** The AI writer's provider; without an apiKey generate-content answers 503. */
  ai?: Partial<WriterOptions> & { model: string };
  /** IMAGE_MAX_PIXELS: the most pixels an uploaded image may have. */
  imageMaxPixels: number;
  /** The body limit of every route but the image-carrying admin routes (BODY_LIMIT; default 100kb). */
  bodyLimit?: string;
  /** TRUSTED_PROXIES: the gateway's addresses, whose X-Forwarded-For gives the client IP. Default loopback. */
  trustedProxies?: string[];
  clock?: () => Date;
  /** Reporting's e-mail figures for the admin template views; absent = zeros. */
  emailStats?: EmailStatsReader;
}

export interface ContentService {
  app: Express;
  /** Indexes and projection catch-up. Call once before serving. */
  start(): Promise<void>;
  /** For the consumer on auth's and engagement's topics (group 'content'), keyed by event type. */
  handlers: Record<string, EventHandler>;
  /** The handlers' types that tolerate a repeated or late delivery (the consumer records no processed id for them). */
  idempotentTypes: readonly string[];
  directory: UserDirectory;
}

/** A body past the image routes' limit: say what the image limit is. */
const tooLargeBody: ErrorRequestHandler = (err, _req, res, next) => {
  const { type, limit } = (err ?? {}) as { type?: unknown; limit?: unknown };
  if (type !== 'entity.too.large' || typeof limit !== 'number' || limit < 5 * 1024 * 1024) return next(err);
  res
    .status(413)
    .json({ status: false, message: 'The request is too large: an image must be 5 MB or smaller' });
};

/** The content service's composition: use cases, routes and read models over the ports it is given. */
export function createContentService(deps: ContentServiceDeps): ContentService {
  const clock = deps.clock ?? (() => new Date());
  const c = contentCollections(deps.store);
  deps.events.register(createContentReadModels(c));
  const directory = createUserDirectory(deps.store);

  const images = createImageIntake({
    media: deps.media,
    inspect: inspectImage,
    maxPixels: deps.imageMaxPixels,
  });
  const views = createPostViews(c, deps.emailStats);
  const reads = createReads({ events: deps.events, clock });
  const topics = createTopics({ c, events: deps.events, clock });
  const templates = createTemplates({ c, events: deps.events, topics, images, views, clock });
  const order = createFeedOrder(c);
  const posts = createReaderPosts({ c, order, views, reads });
  const today = createTodayPost({ c, order, directory, views, reads, clock });
  const promotions = createPromotions({ c, events: deps.events, images, clock });
  const settings = createSiteSettings({ c, events: deps.events });
  const writer = deps.ai?.apiKey
    ? createOpenAiWriter({ ...deps.ai, apiKey: deps.ai.apiKey, model: deps.ai.model })
    : undefined;
  const ai = createAiWriter({ writer, settings });
  const media = createMediaDelivery({
    media: deps.media,
    collections: c,
    resize: createResizer(deps.imageMaxPixels),
  });

  const app = createHttpApp({
    log: deps.log,
    bodyLimit: deps.bodyLimit ?? '100kb',
    ...(deps.trustedProxies ? { trustProxy: deps.trustedProxies } : {}),
    largeBodies: largeBodyRoutes('content'),
  });
  app.use(authenticate({ verifier: deps.verifier, currentUser: directory.currentUser }));
  app.use(topicRoutes(topics));
  app.use(templateAdminRoutes({ templates, ai }));
  app.use(readerRoutes({ posts, today }));
  app.use(promotionRoutes(promotions));
  app.use(settingsRoutes(settings));
  app.use(mediaRoutes(media));
  app.use(eventHistoryRoutes({ store: deps.store, internalToken: deps.internalToken }));
  app.use(internalRoutes({ today, settings, internalToken: deps.internalToken }));
  app.use(privacyRoutes({ store: deps.store, internalToken: deps.internalToken }));
  app.use(tooLargeBody);
  finishApp(app, deps.log);

  return {
    app,
    directory,
    handlers: { ...directory.handlers, ...engagementHandlers(c) },
    idempotentTypes: Object.keys(engagementHandlers(c)),
    async start() {
      await ensureContentIndexes(c);
      await directory.ensureIndexes();
      await deps.events.catchUp();
    },
  };
}
