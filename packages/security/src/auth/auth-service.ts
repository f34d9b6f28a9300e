/**
 * The authentication service behind the auth routes: login, refresh, logout and self-service password
 * change, assembled from the flows beside this file. Framework-free; every dependency is passed in.
 */
import type { SysUserRow } from '@svc/data';
import { silentLogger } from '@svc/kernel';
import type { AuthServiceDeps, ResolvedAuthDeps } from './auth-deps.js';
import { DEFAULT_REFRESH_REUSE_INTERVAL_SECONDS } from './constants.js';
import type { AuthService, IssuedSession } from './contracts.js';
import { type OpenSessionOptions, openSession } from './issue.js';
import { createLoginFlow } from './login.js';
import { changeOwnPassword } from './password-change.js';
import type { ClientInfo } from './principal.js';
import { ownerOfRefreshToken, refreshSession, sessionOfRefreshToken } from './refresh.js';
import type { SecurityEventLog } from './security-events.js';

/** The service, plus the step later login methods (SMS, TOTP) finish with. */
export interface SessionAuthService extends AuthService {
  /** Login-log rows of refused requests (refresh replay here; CSRF refusals in the HTTP layer). */
  securityEvents: SecurityEventLog;
  /**
   * Opens a session for a user whose credentials another flow accepted (second-factor steps): row, limit,
   * tokens, last login. Writes no login-log row; the calling flow records its own attempt.
   */
  openSession(user: SysUserRow, client: ClientInfo, options?: OpenSessionOptions): Promise<IssuedSession>;
}

/**
 * Creates the authentication service.
 * @example
 * const auth = createAuthService({ repositories, sessions: manager, tokens, passwords, cache, settings, policy });
 * const issued = await auth.login({ account, password, client: { ip, userAgent } });
 */
export function createAuthService(deps: AuthServiceDeps): SessionAuthService {
  const now = deps.now ?? (() => new Date());
  const logger = deps.logger ?? silentLogger;
  const resolved: ResolvedAuthDeps = {
    ...deps,
    now,
    hooks: deps.hooks ?? {},
    logger,
    refreshReuseIntervalSeconds: deps.refreshReuseIntervalSeconds ?? DEFAULT_REFRESH_REUSE_INTERVAL_SECONDS,
    // Security events go through the same login-log writer as every attempt.
    securityEvents: { record: (event) => deps.passwords.log({ ...event, method: event.method ?? null }) },
  };
  const login = createLoginFlow(resolved);

  return {
    login,
    securityEvents: resolved.securityEvents,
    refresh: (refreshToken, client) => refreshSession(resolved, refreshToken, client),
    sessionOfRefreshToken: (refreshToken) => sessionOfRefreshToken(resolved, refreshToken),
    ownerOfRefreshToken: (refreshToken) => ownerOfRefreshToken(resolved, refreshToken),
    async logout(principal) {
      await resolved.sessions.revokeSession(principal.sessionId, 'logout');
    },
    changePassword: (principal, oldPassword, newPassword, client) =>
      changeOwnPassword(resolved, principal, oldPassword, newPassword, client),
    openSession: (user, client, options) => openSession(resolved, user, client, options),
  };
}
