import { runServiceContainer } from '@nudge/platform';
import { bootReporting } from './boot';

/** Container composition root of the reporting service (docker-compose, Kubernetes). */
runServiceContainer('reporting', bootReporting);
