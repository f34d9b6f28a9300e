/**
 * Refresh-token rotation (spec "States and transitions: Refresh token", contract §10 "Refresh reuse interval").
 * The presented token is looked up by its SHA-256; an `Active` one is moved to `Used` by the database's
 * compare-and-swap (`UPDATE … WHERE id = ? AND status = Active`, affected rows checked), so of any number of
 * concurrent refreshes of one token, on any number of instances, exactly one wins. The winner gets a new
 * refresh token in the same session and a new access token.
 *
 * A `Used` token presented again is judged by how long ago it was rotated:
 * - within `RefreshReuseIntervalSeconds` (default 5) it is a concurrent tab, a retry or the loser of the race
 *   above: 40007, nothing revoked, the winner's new token stays live;
 * - later it is replay: the whole session is revoked (even after logout), answered 40007 and written to the
 *   login log as a security event. With an interval of 0 every reuse is replay, concurrent losers included.
 */
import { RefreshTokenStatus, type SysRefreshTokenRow } from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';
import { hashRefreshToken, isWellFormedRefreshToken } from '../refresh-tokens.js';
import type { ResolvedAuthDeps } from './auth-deps.js';
import type { IssuedSession, RefreshTokenOwner } from './contracts.js';
import { issueTokens } from './issue.js';
import type { ClientInfo } from './principal.js';

const invalid = () => new BusinessError(ErrorCode.RefreshTokenInvalid);
const MS_PER_SECOND = 1000;

/** Rotates a refresh token; throws 40007 for every refusal. */
export async function refreshSession(
  deps: ResolvedAuthDeps,
  refreshToken: string,
  client: ClientInfo,
): Promise<IssuedSession> {
  if (!isWellFormedRefreshToken(refreshToken)) throw invalid();
  const { repositories: repos, sessions: manager, now } = deps;
  const token = await repos.refreshTokens.findByHash(hashRefreshToken(refreshToken));
  if (!token) throw invalid();
  if (token.status === RefreshTokenStatus.Used) return refuseReuse(deps, token, client);
  const at = now();
  if (token.status !== RefreshTokenStatus.Active || token.expiresAt.getTime() <= at.getTime())
    throw invalid();

  const session = await repos.sessions.findById(token.sessionId);
  if (!session || session.revokedAt !== null) throw invalid();
  if (await manager.expireIfDue(session)) throw invalid();

  const user = await repos.users.findById(session.userId);
  if (!user?.enabled) {
    // Disabling or deleting revokes sessions; this catches a user changed behind the service's back.
    await manager.revokeSession(session.id, user ? 'user-disabled' : 'user-deleted');
    throw invalid();
  }

  // The compare-and-swap: false means another refresh moved the token first (or it was revoked meanwhile).
  if (!(await repos.refreshTokens.markUsedIfActive(token.id, at))) {
    const current = await repos.refreshTokens.findByHash(token.tokenHash);
    if (current?.status === RefreshTokenStatus.Used) return refuseReuse(deps, current, client);
    throw invalid();
  }
  if (!(await manager.recordActivity(session.id, session.isMfa))) throw invalid();
  return issueTokens(deps, user, session.id, at, user.mustChangePassword);
}

/**
 * A `Used` token came back: 40007 in every case; the session is revoked (and the event logged) only when the
 * token was rotated longer than the reuse interval ago.
 */
async function refuseReuse(
  deps: ResolvedAuthDeps,
  token: SysRefreshTokenRow,
  client: ClientInfo,
): Promise<never> {
  const graceMs = deps.refreshReuseIntervalSeconds * MS_PER_SECOND;
  const usedAt = token.usedTime?.getTime();
  if (graceMs > 0 && usedAt !== undefined && deps.now().getTime() - usedAt < graceMs) throw invalid();
  await deps.sessions.revokeSession(token.sessionId, 'refresh-reuse');
  const session = await deps.repositories.sessions.findById(token.sessionId);
  await deps.securityEvents.record({
    account: session?.account ?? '',
    userId: session?.userId ?? null,
    resultCode: ErrorCode.RefreshTokenInvalid.code,
    client,
  });
  throw invalid();
}

/** The session a refresh token belongs to, without rotating it; undefined for an unknown token. */
export async function sessionOfRefreshToken(
  deps: ResolvedAuthDeps,
  refreshToken: string,
): Promise<string | undefined> {
  if (!isWellFormedRefreshToken(refreshToken)) return undefined;
  return (await deps.repositories.refreshTokens.findByHash(hashRefreshToken(refreshToken)))?.sessionId;
}

/** The session and account of a refresh token, without rotating it; undefined for an unknown token. */
export async function ownerOfRefreshToken(
  deps: ResolvedAuthDeps,
  refreshToken: string,
): Promise<RefreshTokenOwner | undefined> {
  const sessionId = await sessionOfRefreshToken(deps, refreshToken);
  if (sessionId === undefined) return undefined;
  const session = await deps.repositories.sessions.findById(sessionId);
  return session ? { sessionId, userId: session.userId, account: session.account } : undefined;
}
