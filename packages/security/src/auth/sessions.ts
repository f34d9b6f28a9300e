/**
 * The per-request session check (spec "Each request checks that the session named by `sid` is still
 * alive"). The access token is verified through the verified-token cache; then the session is looked up in
 * the cache port (one read when warm), or in `sys_session` when the copy is missing. Idle and absolute
 * lifetimes are applied on every request; an ended session is revoked and refused. The row's last activity
 * is written at most once per {@link ACTIVITY_WRITE_INTERVAL_MS}; the exact activity (needed only while an
 * idle timeout is on) is stamped in the cache. See `session-state.ts` for why revocations cannot be undone by
 * a concurrent request.
 */
import { epochMs } from '@svc/kernel';
import type { AccessClaims } from '../claims.js';
import type { AccessTokens } from '../tokens.js';
import { ACTIVITY_WRITE_INTERVAL_MS } from './constants.js';
import type { SessionAuthenticator } from './contracts.js';
import type { UserPrincipal } from './principal.js';
import type { SessionManager } from './session-manager.js';
import {
  expiryOf,
  idleMs,
  isTombstone,
  mayHaveEnded,
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
  tokens: Pick<AccessTokens, 'verify'> & Partial<Pick<AccessTokens, 'verifyNow'>>;
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
  const clock = epochMs(now);

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

  const principalOf = (claims: AccessClaims, userId: number): UserPrincipal => ({
    kind: 'user',
    userId,
    account: claims.unique_name,
    sessionId: claims.sid,
    isSuperAdmin: claims.sadm,
    orgId: claims.org,
  });
  const peek = cache.sync;
  const verifyNow = tokens.verifyNow;

  return {
    /**
     * The common request answered without a promise: a token verified before and a live session copy in
     * memory that needs neither an expiry check, an activity write nor an idle stamp. Anything else (a copy
     * missing, Redis, a session near an end) is left to `authenticate`, which applies the same rules.
     */
    authenticateNow(accessToken) {
      if (!verifyNow) return undefined;
      const claims = verifyNow(accessToken);
      if (!claims) return claims;
      const userId = Number(claims.sub);
      if (!Number.isSafeInteger(userId) || userId <= 0) return null;
      // Without a shared copy to read now, or with idle timeouts on (every request stamps its activity), the
      // full check runs: reading the copy here too would only read it twice.
      if (!peek || (policy.idleMinutesNormal > 0 && policy.idleMinutesMfa > 0)) return undefined;
      const cached = peek.getShared<SessionCacheEntry>(sessionKey(claims.sid)) as
        | SessionCacheEntry
        | undefined;
      if (cached === undefined) return undefined;
      if (isTombstone(cached) || cached.uid !== userId) return null;
      const nowMs = clock();
      if (mayHaveEnded(policy, cached, nowMs) || nowMs - cached.seen >= ACTIVITY_WRITE_INTERVAL_MS)
        return undefined;
      if (idleMs(policy, cached.mfa) > 0) return undefined;
      return principalOf(claims, userId);
    },

    async authenticate(accessToken) {
      const claims = await tokens.verify(accessToken);
      if (!claims) return null;
      const userId = Number(claims.sub);
      if (!Number.isSafeInteger(userId) || userId <= 0) return null;
      const sessionId = claims.sid;
      const nowMs = clock();

      // The shared copy: read on every request, decoded once per write on the memory cache (never modified).
      const cached = (await cache.getShared<SessionCacheEntry>(sessionKey(sessionId))) as
        | SessionCacheEntry
        | undefined;
      let snapshot: SessionSnapshot | null;
      if (cached === undefined) {
        snapshot = await load(sessionId, userId, nowMs);
      } else if (isTombstone(cached)) {
        snapshot = null;
      } else if (cached.uid !== userId) {
        snapshot = null;
      } else {
        snapshot = cached;
        // Only a session near one of its ends needs the (awaited) expiry check; most requests need none.
        const expiry = mayHaveEnded(policy, cached, nowMs)
          ? await expiryOf(deps, sessionId, cached, nowMs)
          : null;
        if (expiry) {
          await manager.revokeSession(sessionId, expiry);
          snapshot = null;
        } else if (nowMs - cached.seen >= ACTIVITY_WRITE_INTERVAL_MS) {
          if (!(await recordLive(deps, sessionId, cached, nowMs))) snapshot = null;
        }
      }
      if (snapshot === null) return null;
      if (idleMs(policy, snapshot.mfa) > 0) await stampActivity(deps, sessionId, snapshot.mfa, nowMs);

      return principalOf(claims, userId);
    },
  };
}
