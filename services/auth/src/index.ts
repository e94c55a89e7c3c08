export { bootAuth } from './boot';
export { createAuthService, type AuthService, type AuthServiceDeps } from './service';
