export { bootAuth } from './boot';
export { type AuthService, type AuthServiceDeps, createAuthService } from './service';
