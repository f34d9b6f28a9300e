/**
 * Builds the security layer for the HTTP app from the options, the repositories and the cache: runtime
 * settings over the config store, access tokens, sessions, login, permissions, API keys, client-IP rules,
 * rate limits and cookie mode. Configuration mistakes (short API keys, bad proxy entries) become
 * `StartupError`s naming the key.
 */
import type { ConfigStore, Repositories } from '@svc/data';
import type { Cache } from '@svc/data/cache';
import { type Configuration, epochMs, type Logger, type ResolvedJwtKey } from '@svc/kernel';
import {
  assemblePasswordCheck,
  assertApiKeyConfig,
  configApiKeySource,
  createAccessTokens,
  createApiKeyValidator,
  createAuthService,
  createClientIpResolver,
  createPermissionResolver,
  createRateLimiter,
  createRuntimeSettings,
  createSessionAuthenticator,
  createSessionManager,
  deriveSubkey,
  type LoginHooks,
  type PasswordCheck,
  type PermissionCache,
  type SessionAuthService,
  type SessionManager,
  sessionPolicyFromOptions,
} from '@svc/security';
import type { ServiceMetrics } from '../observability/metrics.js';
import { observeLock } from '../observability/sources.js';
import { allowedOriginSet } from '../security/cookie-guard.js';
import type { HttpSecurity } from '../security/deps.js';
import { asStartupError, StartupError } from './startup-error.js';

export interface SecurityServices {
  http: HttpSecurity;
  auth: SessionAuthService;
  sessions: SessionManager;
  permissions: PermissionCache;
  /** The one lock-aware password check, for every door that accepts a password (login, MFA, personal). */
  passwords: PasswordCheck;
}

export interface BuildSecurityInput {
  config: Configuration;
  repos: Repositories;
  cache: Cache;
  configStore: ConfigStore;
  jwtKey: ResolvedJwtKey;
  logger: Logger;
  now: () => Date;
  hooks?: LoginHooks;
  /** Counts lockouts when metrics are on. */
  metrics?: ServiceMetrics | undefined;
}

/** The configured origins, or a start-up error naming the key and the entry that is not an origin. */
function allowedOriginsOf(origins: readonly string[]): ReadonlySet<string> {
  for (const origin of origins) {
    let valid = false;
    try {
      const url = new URL(origin);
      valid =
        (url.protocol === 'https:' || url.protocol === 'http:') &&
        url.origin === origin.replace(/\/$/, '').toLowerCase();
    } catch {}
    if (!valid)
      throw new StartupError(
        `Service:Security:Session:AllowedOrigins: "${origin}" is not an origin (scheme://host[:port], no path).`,
      );
  }
  return allowedOriginSet(origins);
}

export function buildSecurity(input: BuildSecurityInput): SecurityServices {
  const { config, repos, cache, jwtKey, logger, now } = input;
  const options = config.service;
  const security = options.Security;
  let resolveClientIp: HttpSecurity['resolveClientIp'];
  let allowedOrigins: ReadonlySet<string>;
  try {
    allowedOrigins = allowedOriginsOf(security.Session.AllowedOrigins);
    assertApiKeyConfig(security.ApiKey.Keys);
    resolveClientIp = createClientIpResolver({
      enabled: security.ForwardedHeaders.Enabled,
      knownProxies: security.ForwardedHeaders.KnownProxies,
    });
  } catch (error) {
    throw asStartupError(error);
  }

  const settingsLog = logger.child('Service.Config');
  const settings = createRuntimeSettings({
    store: input.configStore,
    options,
    onInvalid: (key, raw) =>
      settingsLog.warn(`Config row ${key} holds an invalid value; using the fallback.`, { raw }),
  });
  const nowMs = epochMs(now);
  const tokens = createAccessTokens({ key: jwtKey.key, issuer: options.Jwt.Issuer, now: nowMs });
  const policy = sessionPolicyFromOptions(options);
  const sessionDeps = { sessions: repos.sessions, refreshTokens: repos.refreshTokens, cache, policy, now };
  const sessions = createSessionManager(sessionDeps);
  const authenticator = createSessionAuthenticator({ ...sessionDeps, tokens, manager: sessions });
  const permissions = createPermissionResolver({
    permissions: repos.permissions,
    cache,
    ttlMinutes: options.Cache.PermissionMinutes,
  });
  const passwords = assemblePasswordCheck({
    repositories: repos,
    cache,
    lockSettings: () => settings.loginLock(),
    pbkdf2Iterations: security.Password.Pbkdf2Iterations,
    now,
    logger: logger.child('Service.Auth'),
    observeLock: (lock) => observeLock(lock, input.metrics),
  });
  const auth = createAuthService({
    repositories: repos,
    sessions,
    tokens,
    passwords,
    cache,
    settings,
    policy,
    refreshReuseIntervalSeconds: security.Session.RefreshReuseIntervalSeconds,
    now,
    logger: logger.child('Service.Auth'),
    ...(input.hooks ? { hooks: input.hooks } : {}),
  });

  const http: HttpSecurity = {
    settings,
    rateLimiter: createRateLimiter({ cache }),
    resolveClientIp,
    apiKeys: createApiKeyValidator(configApiKeySource(security.ApiKey.Keys)),
    apiKeyHeader: security.ApiKey.HeaderName,
    sessions: authenticator,
    permissions,
    auth,
    csrfKey: deriveSubkey(jwtKey.key, 'csrf'),
    cookies: {
      enabled: security.Session.CookieMode,
      domain: security.Session.CookieDomain,
      secure: security.Session.CookieSecure,
      sameSite: security.Session.CookieSameSite,
      allowedOrigins,
    },
    demoMode: options.DemoMode,
    securityEvents: auth.securityEvents,
  };
  return { http, auth, sessions, permissions, passwords };
}
