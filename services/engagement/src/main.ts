import { runServiceContainer } from '@nudge/platform';
import { bootEngagement } from './boot';

/** Container composition root of the engagement service (docker-compose, Kubernetes). */
runServiceContainer('engagement', async (opts) => {
  if (!opts.serviceUrls.auth) opts.log.warn('AUTH_URL is not set: check-in answers cannot sign readers in');
  return bootEngagement(opts);
});
