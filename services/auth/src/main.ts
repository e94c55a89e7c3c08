import { runServiceContainer } from '@nudge/platform';
import { bootAuth } from './boot';

/** Container composition root of the auth service (docker-compose, Kubernetes). */
runServiceContainer('auth', bootAuth);
