export { bootEngagement } from './boot';
export { CONSUMED_TOPICS, createEngagementConsumer, ENGAGEMENT_GROUP } from './events/consumer';
export { ENGAGEMENT_READ_MODEL_COLLECTIONS } from './events/read-models';
export {
  type AuthSession,
  type AuthSessions,
  AuthUnavailableError,
  createHttpAuthSessions,
} from './infra/auth-client';
export { createEngagementService, type EngagementService, type EngagementServiceDeps } from './service';
