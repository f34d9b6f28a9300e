/**
 * Refresh-token rotation (spec "States and transitions: Refresh token"). The presented token is looked up by
 * its SHA-256; an `Active` one is moved to `Used` by a conditional update that exactly one concurrent caller
 * wins, and the winner gets a new refresh token in the same session plus a new access token. A `Used` token
 * presented again is replay: the whole session is revoked, at any later time, even after logout.
 *
 * "Later" needs a definition when requests overlap: N concurrent refreshes of one token must leave exactly
 * one success and one live token, yet a loser that read the row after the winner's update would see `Used`
 * and kill the winner's session. So one refresh per token runs at a time (a single-flight marker in the
 * cache, shared by every instance with Redis): presentations overlapping it are refused without revoking,
 * and any presentation after it has finished is judged by the row alone. The conditional update stays the
 * guard of last resort (e.g. a marker lost with its cache).
 */
import { RefreshTokenStatus } from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';
import { hashRefreshToken, isWellFormedRefreshToken } from '../refresh-tokens.js';
import type { ResolvedAuthDeps } from './auth-deps.js';
import { REFRESH_FLIGHT_KEY_PREFIX, REFRESH_FLIGHT_TTL_MS } from './constants.js';
import type { IssuedSession } from './contracts.js';
import { issueTokens } from './issue.js';

const invalid = () => new BusinessError(ErrorCode.RefreshTokenInvalid);

/** Rotates a refresh token; throws 40007 for every refusal. */
export async function refreshSession(deps: ResolvedAuthDeps, refreshToken: string): Promise<IssuedSession> {
  if (!isWellFormedRefreshToken(refreshToken)) throw invalid();
  const hash = hashRefreshToken(refreshToken);
  const flightKey = `${REFRESH_FLIGHT_KEY_PREFIX}${hash}`;
  if (!(await deps.cache.setIfAbsent(flightKey, 1, REFRESH_FLIGHT_TTL_MS))) throw invalid();
  try {
    return await rotate(deps, hash);
  } finally {
    await deps.cache.delete(flightKey);
  }
}

async function rotate(deps: ResolvedAuthDeps, hash: string): Promise<IssuedSession> {
  const { repositories: repos, sessions: manager, now } = deps;
  const token = await repos.refreshTokens.findByHash(hash);
  if (!token) throw invalid();
  if (token.status === RefreshTokenStatus.Used) {
    await manager.revokeSession(token.sessionId, 'refresh-reuse');
    throw invalid();
  }
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

  // The concurrency guard: a false answer means another refresh won; that one's session stays alive.
  if (!(await repos.refreshTokens.markUsedIfActive(token.id, at))) throw invalid();
  if (!(await manager.recordActivity(session.id, session.isMfa))) throw invalid();
  return issueTokens(deps, user, session.id, at, user.mustChangePassword);
}

/** The session a refresh token belongs to, without rotating it; undefined for an unknown token. */
export async function sessionOfRefreshToken(
  deps: ResolvedAuthDeps,
  refreshToken: string,
): Promise<string | undefined> {
  if (!isWellFormedRefreshToken(refreshToken)) return undefined;
  return (await deps.repositories.refreshTokens.findByHash(hashRefreshToken(refreshToken)))?.sessionId;
}
