/**
 * Issuing what a successful login or refresh hands out: the session row (login only), an access token with
 * the spec's claims and a refresh token of which only the SHA-256 is stored.
 */

import type { SysUserRow } from '@svc/data';
import { BusinessError, ErrorCode, guidV7 } from '@svc/kernel';
import { newRefreshToken } from '../refresh-tokens.js';
import type { ResolvedAuthDeps } from './auth-deps.js';
import type { IssuedSession } from './contracts.js';
import type { ClientInfo } from './principal.js';
import type { RevokeReason } from './session-manager.js';

const MS_PER_MINUTE = 60_000;
const MS_PER_HOUR = 3_600_000;

/** Access and refresh tokens for `user` in the existing session `sessionId`. */
export async function issueTokens(
  deps: ResolvedAuthDeps,
  user: SysUserRow,
  sessionId: string,
  at: Date,
  mustChangePassword: boolean,
): Promise<IssuedSession> {
  const { accessMinutes, refreshMinutes } = await deps.settings.sessionLifetimes();
  const access = await deps.tokens.issue(
    {
      sub: String(user.id),
      sid: sessionId,
      sadm: user.isSuperAdmin,
      org: user.orgId,
      unique_name: user.account,
    },
    accessMinutes,
  );
  const refresh = newRefreshToken();
  const refreshExpiresAt = new Date(at.getTime() + refreshMinutes * MS_PER_MINUTE);
  await deps.repositories.refreshTokens.insert({
    sessionId,
    tokenHash: refresh.hash,
    expiresAt: refreshExpiresAt,
    createTime: at,
  });
  return {
    accessToken: access.token,
    expiresAt: access.expiresAt,
    refreshToken: refresh.token,
    refreshExpiresAt,
    mustChangePassword,
    userId: user.id,
    account: user.account,
    name: user.realName,
    isSuperAdmin: user.isSuperAdmin,
    sessionId,
  };
}

/**
 * What the caller accepted, asked again of the user row read after the session row exists. False revokes the
 * new session and throws `refusal`.
 */
export interface CredentialRecheck {
  holds(current: SysUserRow): boolean | Promise<boolean>;
  refusal: BusinessError;
  /** Recorded on the revoked session: what was taken away. @default 'password-change' */
  revokeReason?: (current: SysUserRow) => RevokeReason;
}

/** Options of {@link openSession}. */
export interface OpenSessionOptions {
  /** Opened through a second factor (selects `IdleMinutesMfa`). @default false */
  isMfa?: boolean;
  /** Returned in the login output. @default user.mustChangePassword */
  mustChangePassword?: boolean;
  /**
   * The credential the session was granted on (the password a login verified, the one a second-factor
   * challenge was started with, the authenticator a TOTP step was issued for) is still the user's.
   * @default none (only `enabled` is checked again)
   */
  credential?: CredentialRecheck;
}

/**
 * Opens a session for a user whose credentials were accepted: the row first, then a fresh look at the user,
 * then the session limit (so concurrent logins converge on the newest N, and a session refused by that look
 * never trims a live one), then the tokens and the last-login record.
 *
 * The fresh look closes the window between the credential check and the insert. Every path that takes a
 * credential away writes the user row first and revokes the user's sessions after it: disable and delete, the
 * self-service and forced password change (`password-change.ts`), the administrator's reset
 * (`admin/users.ts` `resetPassword`), the clearing of an authenticator by an administrator or a recovery code
 * (`mfa/binding.ts`). So either that revocation sees this row, or this read sees the new row. A path that
 * changes the password or the authenticator must keep that order.
 */
export async function openSession(
  deps: ResolvedAuthDeps,
  user: SysUserRow,
  client: ClientInfo,
  options: OpenSessionOptions = {},
): Promise<IssuedSession> {
  const at = deps.now();
  const { absoluteHours } = deps.policy;
  const sessionId = await deps.repositories.sessions.insert({
    id: guidV7(at.getTime()),
    userId: user.id,
    account: user.account,
    ip: client.ip,
    userAgent: client.userAgent,
    isMfa: options.isMfa ?? false,
    createTime: at,
    absoluteExpiresAt: absoluteHours > 0 ? new Date(at.getTime() + absoluteHours * MS_PER_HOUR) : null,
  });
  // A disable, delete or password change that ran between the credential check and the insert revoked every
  // session but could not see this one: look again now that the row exists (a later one will see it).
  const current = await deps.repositories.users.findById(user.id);
  if (!current?.enabled) {
    await deps.sessions.revokeSession(sessionId, 'user-disabled');
    throw new BusinessError(ErrorCode.AccountDisabled);
  }
  if (options.credential && !(await options.credential.holds(current))) {
    await deps.sessions.revokeSession(
      sessionId,
      options.credential.revokeReason?.(current) ?? 'password-change',
    );
    throw options.credential.refusal;
  }
  await deps.sessions.enforceLimit(user.id);
  const issued = await issueTokens(
    deps,
    user,
    sessionId,
    at,
    options.mustChangePassword ?? user.mustChangePassword,
  );
  await deps.repositories.users.recordLogin(user.id, { at, ip: client.ip || null });
  return issued;
}
