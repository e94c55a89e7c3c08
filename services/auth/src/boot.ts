import type { ServiceName } from '@nudge/contracts';
import {
  type Config,
  createConsumer,
  createEmailStatsClient,
  type EventBus,
  type Logger,
  loadSecrets,
  type Messaging,
  openServiceRuntime,
  topicFor,
} from '@nudge/platform';
import { byUser } from './events/by-user';
import { REMINDER_IDEMPOTENT_TYPES } from './events/reminder-consumer';
import { createAuthService } from './service';

/** Builds the auth service from configuration: what both the container (main.ts) and the standalone process run. */
export async function bootAuth(opts: {
  config: Config;
  bus: EventBus;
  log: Logger;
  messaging: Messaging;
  /** Read at call time: reporting's URL for the admin views' e-mail figures. */
  serviceUrls?: Partial<Record<ServiceName, string>>;
}) {
  const { config, bus, messaging } = opts;
  const log = opts.log.child({ service: 'auth' });
  const runtime = await openServiceRuntime({ service: 'auth', config, bus, log });
  const secrets = await loadSecrets(config);
  const service = createAuthService({
    store: runtime.store,
    events: runtime.events,
    mail: messaging.mail,
    whatsapp: messaging.whatsapp,
    ...(messaging.outbox?.forget ? { outbox: messaging.outbox } : {}),
    keys: secrets.keys,
    linkSecrets: secrets.linkSecrets,
    internalToken: secrets.internalToken,
    codeSecret: secrets.codeSecret,
    log,
    publicUrl: config.PUBLIC_URL,
    adminEmails: config.ADMIN_EMAILS.map((e) => e.toLowerCase()),
    sessionTtlDays: config.SESSION_TTL_DAYS,
    bodyLimit: config.BODY_LIMIT,
    trustedProxies: config.TRUSTED_PROXIES,
    codeLimitPerHour: config.AUTH_CODE_LIMIT_PER_HOUR,
    codeIpLimitPerHour: config.AUTH_CODE_IP_LIMIT_PER_HOUR,
    whatsAppNumberLimitPerHour: config.AUTH_WHATSAPP_NUMBER_LIMIT_PER_HOUR,
    whatsAppIpLimitPerHour: config.AUTH_WHATSAPP_IP_LIMIT_PER_HOUR,
    redirectAllowlist: config.REDIRECT_ALLOWLIST,
    emailStats: createEmailStatsClient({
      reportingUrl: () => opts.serviceUrls?.reporting,
      internalToken: secrets.internalToken,
      log,
    }),
    coldAfter: config.REMINDER_COLD_AFTER,
    ...(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET
      ? {
          google: {
            clientId: config.GOOGLE_CLIENT_ID,
            clientSecret: config.GOOGLE_CLIENT_SECRET,
            issuer: config.GOOGLE_ISSUER,
          },
        }
      : {}),
  });
  const billing = createConsumer({
    store: runtime.store,
    bus,
    groupId: 'auth',
    topics: [topicFor('billing'), topicFor('engagement')],
    handlers: { ...service.billingHandlers, ...service.reminderHandlers },
    idempotentTypes: REMINDER_IDEMPOTENT_TYPES,
    // Several streams feed one user's role and unopened count: their handlers run one after another.
    serializeBy: byUser,
    log,
  });
  await service.start();
  runtime.start();
  await billing.start();
  return {
    app: service.app,
    runtime,
    ready: () => runtime.store.ping(),
    async close() {
      await billing.stop();
      await runtime.close();
    },
  };
}
