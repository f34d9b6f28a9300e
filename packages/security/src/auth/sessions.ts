/**
 * The per-request session check (spec "Each request checks that the session named by `sid` is still
 * alive"). The access token is verified through the verified-token cache; then the session is looked up in
 * the cache port (one read when warm), or in `sys_session` when the copy is missing. Idle and absolute
 * lifetimes are applied on every request; an ended session is revoked and refused. The row's last activity
 * is written at most once per {@link ACTIVITY_WRITE_INTERVAL_MS}; the exact activity (needed only while an
 * idle timeout is on) is stamped in the cache. See `session-state.ts` for why revocations cannot be undone by
 * a concurrent request.
 */
import type { AccessTokens } from '../tokens.js';
import { ACTIVITY_WRITE_INTERVAL_MS } from './constants.js';
import type { SessionAuthenticator } from './contracts.js';
import type { UserPrincipal } from './principal.js';
import type { SessionManager } from './session-manager.js';
import {
  expiryOf,
  isTombstone,
  recordLive,
  type SessionCacheEntry,
  type SessionDeps,
  type SessionSnapshot,
  sessionKey,
  snapshotOf,
  stampActivity,
  writeTombstone,
} from './session-state.js';

/** Dependencies of {@link createSessionAuthenticator}. */
export interface SessionAuthenticatorDeps extends SessionDeps {
  /** Verifies access tokens (with its verified-token cache). */
  tokens: Pick<AccessTokens, 'verify'>;
  /** Revokes sessions found idle or past their absolute end. */
  manager: Pick<SessionManager, 'revokeSession'>;
}

/**
 * Creates the session authenticator used by the bearer guard.
 * @example
 * const sessions = createSessionAuthenticator({ ...sessionDeps, tokens, manager });
 * const principal = await sessions.authenticate(bearerToken); // UserPrincipal | null → 401 / 40006
 */
export function createSessionAuthenticator(deps: SessionAuthenticatorDeps): SessionAuthenticator {
  const { tokens, cache, sessions, manager, policy, now } = deps;

  /** The snapshot of a live, unexpired session of `userId` read from its row, or null (tombstone written). */
  async function load(sessionId: string, userId: number, nowMs: number): Promise<SessionSnapshot | null> {
    const row = await sessions.findById(sessionId);
    if (!row || row.revokedAt !== null) {
      await writeTombstone(cache, sessionId);
      return null;
    }
    if (row.userId !== userId) return null;
    const snapshot = snapshotOf(row, policy);
    const expiry = await expiryOf(deps, sessionId, snapshot, nowMs);
    if (expiry) {
      await manager.revokeSession(sessionId, expiry);
      return null;
    }
    return (await recordLive(deps, sessionId, snapshot, nowMs)) ? snapshot : null;
  }

  return {
    async authenticate(accessToken) {
      const claims = await tokens.verify(accessToken);
      if (!claims) return null;
      const userId = Number(claims.sub);
      if (!Number.isSafeInteger(userId) || userId <= 0) return null;
      const sessionId = claims.sid;
      const nowMs = now().getTime();

      const cached = await cache.get<SessionCacheEntry>(sessionKey(sessionId));
      let snapshot: SessionSnapshot | null;
      if (cached === undefined) {
        snapshot = await load(sessionId, userId, nowMs);
      } else if (isTombstone(cached)) {
        snapshot = null;
      } else if (cached.uid !== userId) {
        snapshot = null;
      } else {
        snapshot = cached;
        const expiry = await expiryOf(deps, sessionId, cached, nowMs);
        if (expiry) {
          await manager.revokeSession(sessionId, expiry);
          snapshot = null;
        } else if (nowMs - cached.seen >= ACTIVITY_WRITE_INTERVAL_MS) {
          if (!(await recordLive(deps, sessionId, cached, nowMs))) snapshot = null;
        }
      }
      if (snapshot === null) return null;
      await stampActivity(deps, sessionId, snapshot.mfa, nowMs);

      const principal: UserPrincipal = {
        kind: 'user',
        userId,
        account: claims.unique_name,
        sessionId,
        isSuperAdmin: claims.sadm,
        orgId: claims.org,
      };
      return principal;
    },
  };
}
