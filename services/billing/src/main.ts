import { runServiceContainer } from '@nudge/platform';
import { bootBilling } from './boot';

/** Container composition root of the billing service (docker-compose, Kubernetes). */
runServiceContainer('billing', bootBilling);
