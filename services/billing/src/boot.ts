import {
  createConsumer,
  createTokenVerifier,
  createUserDirectory,
  loadInternalToken,
  loadVerifyKey,
  openServiceRuntime,
  type ServiceBootOptions,
  temporalConnection,
  topicFor,
} from '@nudge/platform';
import type { RenewalScheduler } from './app/renewal-workflows';
import { billingUserHandlers } from './events/erasure-consumer';
import { createAuthUserRecords } from './infra/auth-users';
import { createContentSiteSettings } from './infra/content-settings';
import { openPayments } from './infra/open-payments';
import { createTemporalRenewalScheduler } from './infra/temporal-renewals';
import { createBillingService } from './service';

/** Builds the billing service from configuration: what both the container (main.ts) and the standalone process run. */
export async function bootBilling(
  opts: ServiceBootOptions & {
    /** The renewal workflows' port (the standalone process's embedded one); default Temporal when configured. */
    renewals?: RenewalScheduler;
  },
) {
  const { config, bus } = opts;
  const log = opts.log.child({ service: 'billing' });
  const runtime = await openServiceRuntime({ service: 'billing', config, bus, log });
  const verifier = createTokenVerifier(await loadVerifyKey(config));
  const internalToken = await loadInternalToken(config);
  const payments = await openPayments(config, runtime.store, log);
  const directory = createUserDirectory(runtime.store);
  const temporal =
    !opts.renewals && config.TEMPORAL_ADDRESS
      ? createTemporalRenewalScheduler({
          connection: temporalConnection(config),
          namespace: config.TEMPORAL_NAMESPACE,
          taskQueue: config.TEMPORAL_TASK_QUEUE,
        })
      : undefined;
  const renewals = opts.renewals ?? temporal;
  if (!renewals) log.warn('no renewal workflows (TEMPORAL_ADDRESS is not set): no notices, no expiry');
  const service = createBillingService({
    store: runtime.store,
    events: runtime.events,
    log,
    verifier,
    directory,
    ...payments,
    users: createAuthUserRecords({
      ...(opts.serviceUrls.auth ? { authUrl: opts.serviceUrls.auth } : {}),
      internalToken,
      log,
    }),
    bodyLimit: config.BODY_LIMIT,
    trustedProxies: config.TRUSTED_PROXIES,
    notices: {
      mail: opts.messaging.mail,
      siteSettings: createContentSiteSettings({ contentUrl: () => opts.serviceUrls.content }),
      publicUrl: config.PUBLIC_URL,
    },
    internalToken,
    ...(renewals ? { renewals } : {}),
    renewalGraceMs: config.RENEWAL_GRACE_HOURS * 3600_000,
  });
  const users = createConsumer({
    store: runtime.store,
    bus,
    groupId: 'billing',
    topics: [topicFor('auth')],
    handlers: billingUserHandlers(runtime.store, directory),
    log,
  });
  await service.start();
  runtime.start();
  await users.start();
  return {
    app: service.app,
    service,
    runtime,
    ready: () => runtime.store.ping(),
    async close() {
      await users.stop();
      await runtime.close();
      await temporal?.close();
    },
  };
}
