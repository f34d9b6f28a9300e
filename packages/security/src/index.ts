/**
 * @svc/security: framework-free building blocks for authentication and abuse protection — access and refresh
 * tokens, password policy, login lock, rate limiting, API keys, CSRF, client-IP resolution and typed runtime
 * settings. Each takes its dependencies (cache port, clock, settings) as arguments; nothing is a singleton.
 */
export * from './admin/index.js';
export * from './api-keys.js';
export type { AuthServiceDeps, LoginHooks } from './auth/auth-deps.js';
export * from './auth/auth-service.js';
export * from './auth/constants.js';
export * from './auth/contracts.js';
export type { CredentialRecheck, OpenSessionOptions } from './auth/issue.js';
export * from './auth/login-log.js';
export * from './auth/password-check.js';
export * from './auth/permissions.js';
export * from './auth/principal.js';
export * from './auth/security-events.js';
export * from './auth/session-manager.js';
export {
  type SessionDeps,
  type SessionExpiry,
  type SessionPolicy,
  sessionPolicyFromOptions,
} from './auth/session-state.js';
export * from './auth/sessions.js';
export * from './cache-classes.js';
export * from './claims.js';
export * from './client-ip.js';
export * from './constants.js';
export * from './csrf.js';
export * from './lockout.js';
export * from './mfa/index.js';
export * from './password-policy.js';
export * from './portal/index.js';
export * from './rate-limit.js';
export * from './refresh-tokens.js';
export * from './runtime-config.js';
export * from './subkeys.js';
export * from './token-cache.js';
export * from './tokens.js';
