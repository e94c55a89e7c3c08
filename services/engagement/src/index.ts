export { bootEngagement } from './boot';
export { CONSUMED_TOPICS, createEngagementConsumer, ENGAGEMENT_GROUP } from './events/consumer';
export {
  type AuthSession,
  type AuthSessions,
  AuthUnavailableError,
  createHttpAuthSessions,
} from './infra/auth-client';
export { createEngagementService, type EngagementService, type EngagementServiceDeps } from './service';
