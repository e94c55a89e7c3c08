import { runServiceContainer } from '@nudge/platform';
import { bootContent } from './boot';

/** Container composition root of the content service (docker-compose, Kubernetes). */
runServiceContainer('content', bootContent);
