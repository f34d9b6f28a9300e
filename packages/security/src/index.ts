/**
 * @svc/security: framework-free building blocks for authentication and abuse protection — access and refresh
 * tokens, password policy, login lock, rate limiting, API keys, CSRF, client-IP resolution and typed runtime
 * settings. Each takes its dependencies (cache port, clock, settings) as arguments; nothing is a singleton.
 */
export * from './api-keys.js';
export * from './claims.js';
export * from './client-ip.js';
export * from './constants.js';
export * from './csrf.js';
export * from './lockout.js';
export * from './password-policy.js';
export * from './rate-limit.js';
export * from './refresh-tokens.js';
export * from './runtime-config.js';
export * from './subkeys.js';
export * from './token-cache.js';
export * from './tokens.js';
export * from './auth/contracts.js';
export * from './auth/principal.js';
