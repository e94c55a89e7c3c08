import {
  createTokenVerifier,
  loadInternalToken,
  loadVerifyKey,
  openServiceRuntime,
  type ServiceBootOptions,
} from '@nudge/platform';
import { createEngagementConsumer } from './events/consumer';
import { createHttpAuthSessions } from './infra/auth-client';
import { createEngagementService } from './service';

/** Builds the engagement service from configuration: what both the container (main.ts) and the standalone process run. */
export async function bootEngagement(opts: ServiceBootOptions) {
  const { config, bus } = opts;
  const log = opts.log.child({ service: 'engagement' });
  const runtime = await openServiceRuntime({ service: 'engagement', config, bus, log });
  const internalToken = await loadInternalToken(config);
  const service = createEngagementService({
    store: runtime.store,
    events: runtime.events,
    verifier: createTokenVerifier(await loadVerifyKey(config)),
    auth: createHttpAuthSessions({ baseUrl: opts.serviceUrls.auth, internalToken }),
    internalToken,
    log,
    publicUrl: config.PUBLIC_URL,
    bodyLimit: config.BODY_LIMIT,
    trustedProxies: config.TRUSTED_PROXIES,
    checkinLinkTtlDays: config.CHECKIN_LINK_TTL_DAYS,
    softBounces: { limit: config.SUPPRESSION_SOFT_BOUNCES, days: config.SUPPRESSION_SOFT_BOUNCE_DAYS },
    deliveryWebhooks: {
      sesTopics: config.SES_SNS_TOPIC_ARNS,
      ...(config.SENDGRID_WEBHOOK_PUBLIC_KEY
        ? { sendGridPublicKey: config.SENDGRID_WEBHOOK_PUBLIC_KEY }
        : {}),
      ...(config.POSTMARK_WEBHOOK_USER && config.POSTMARK_WEBHOOK_PASSWORD
        ? { postmark: { user: config.POSTMARK_WEBHOOK_USER, password: config.POSTMARK_WEBHOOK_PASSWORD } }
        : {}),
    },
  });
  await service.start();
  runtime.start();
  const consumer = createEngagementConsumer({
    store: runtime.store,
    bus,
    handlers: service.handlers,
    idempotentTypes: service.idempotentTypes,
    log,
  });
  await consumer.start();
  return {
    app: service.app,
    runtime,
    ready: () => runtime.store.ping(),
    async close() {
      await consumer.stop();
      await runtime.close();
    },
  };
}
