import {
  createConsumer,
  createEmailStatsClient,
  createTokenVerifier,
  loadInternalToken,
  loadVerifyKey,
  openServiceRuntime,
  type ServiceBootOptions,
  type ServiceRuntime,
  topicFor,
} from '@nudge/platform';
import type { Express } from 'express';
import { openMediaStore } from './infra/media';
import { createContentService } from './service';

export interface BootedContent {
  app: Express;
  runtime: Pick<ServiceRuntime, 'store' | 'events'>;
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** Builds the content service from configuration: what both the container (main.ts) and the standalone process run. */
export async function bootContent(opts: ServiceBootOptions): Promise<BootedContent> {
  const { config, bus } = opts;
  const log = opts.log.child({ service: 'content' });
  const runtime = await openServiceRuntime({ service: 'content', config, bus, log });
  const media = await openMediaStore(config);
  const internalToken = await loadInternalToken(config);
  const service = createContentService({
    store: runtime.store,
    events: runtime.events,
    media,
    verifier: createTokenVerifier(await loadVerifyKey(config)),
    internalToken,
    emailStats: createEmailStatsClient({
      reportingUrl: () => opts.serviceUrls.reporting,
      internalToken,
      log,
    }),
    log,
    bodyLimit: config.BODY_LIMIT,
    imageMaxPixels: config.IMAGE_MAX_PIXELS,
    trustedProxies: config.TRUSTED_PROXIES,
    ai: {
      model: config.OPENAI_MODEL,
      ...(config.OPENAI_API_KEY ? { apiKey: config.OPENAI_API_KEY } : {}),
      ...(config.OPENAI_BASE_URL ? { baseURL: config.OPENAI_BASE_URL } : {}),
    },
  });
  await service.start();
  runtime.start();
  const consumer = createConsumer({
    store: runtime.store,
    bus,
    groupId: 'content',
    topics: [topicFor('auth'), topicFor('engagement')],
    handlers: service.handlers,
    idempotentTypes: service.idempotentTypes,
    log: log.child({ part: 'consumer' }),
  });
  await consumer.start();
  return {
    app: service.app,
    runtime,
    ready: () => runtime.store.ping(),
    async close() {
      await consumer.stop();
      await runtime.close();
      await media.close();
    },
  };
}
