/**
 * The session manager: every way a session ends on purpose goes through here, so that each one revokes the
 * row, revokes its refresh tokens and replaces its cache copy with a tombstone, in that order. Logout, forced
 * logout, disabling or deleting a user, refresh-token replay, `Single`/`MaxConcurrent` trimming and idle or
 * absolute expiry all take effect on the very next request.
 */
import type { SysSessionRow } from '@svc/data';
import {
  afterRevocation,
  expiryOf,
  type SessionDeps,
  type SessionExpiry,
  snapshotOf,
  stampActivity,
  writeTombstone,
} from './session-state.js';

/** Reasons written to `sys_session.revoke_reason` by the built-in paths. */
export type RevokeReason =
  | 'logout'
  | 'forced'
  | 'user-disabled'
  | 'user-deleted'
  | 'refresh-reuse'
  | 'single-session'
  | 'max-concurrent'
  | 'password-change'
  | 'password-reset'
  | 'mfa-recovery'
  | 'mfa-cleared'
  | SessionExpiry
  | (string & {});

/** Told after sessions ended on purpose or by expiry (the realtime hub sends `force-logout` and closes sockets). */
export interface SessionsEndedEvent {
  sessionIds: string[];
  /** The owner when the path knows it (every user-wide revocation does; a single revocation may not). */
  userId?: number | undefined;
  reason: RevokeReason;
}

/** Revocation and liveness of sessions, for the auth flows and for admin features. */
export interface SessionManager {
  /**
   * Calls `listener` after every revocation that ended at least one session (the one hook for logout, forced
   * logout, disable, delete, password change or reset, MFA clear and recovery, limits, expiry). A throwing
   * listener is ignored. Answers a function that removes it.
   */
  onSessionsEnded(listener: (event: SessionsEndedEvent) => void): () => void;
  /** Revokes one session; true when this call revoked it (false: absent or already revoked). */
  revokeSession(sessionId: string, reason: RevokeReason): Promise<boolean>;
  /**
   * Revokes every live session of a user (disable, delete, forced logout of a user, MFA recovery), optionally
   * but one; returns how many it revoked.
   */
  revokeUserSessions(
    userId: number,
    reason: RevokeReason,
    options?: { exceptSessionId?: string },
  ): Promise<number>;
  /**
   * Applies `Session:Mode` and `MaxConcurrent` after a login inserted its session: keeps the newest one
   * (`Single`) or the newest N and revokes the rest; returns how many it revoked.
   */
  enforceLimit(userId: number): Promise<number>;
  /** Whether a live row has ended by idle or absolute lifetime now; if so it is revoked on the spot. */
  expireIfDue(row: SysSessionRow): Promise<SessionExpiry | null>;
  /** Records activity outside the request path (a refresh); false when the session is no longer live. */
  recordActivity(sessionId: string, isMfa: boolean): Promise<boolean>;
}

/**
 * Creates the session manager.
 * @example
 * const manager = createSessionManager({ sessions, refreshTokens, cache, policy, now: () => new Date() });
 * await manager.revokeUserSessions(userId, 'user-disabled');
 */
export function createSessionManager(deps: SessionDeps): SessionManager {
  const { sessions, policy, now } = deps;
  const listeners = new Set<(event: SessionsEndedEvent) => void>();

  function ended(event: SessionsEndedEvent): void {
    if (event.sessionIds.length === 0) return;
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch {
        // A listener's failure must not undo or fail the revocation.
      }
    }
  }

  async function revokeSession(sessionId: string, reason: RevokeReason): Promise<boolean> {
    const changed = await sessions.revoke(sessionId, reason, now());
    // Tokens and the cache copy are handled even when the row was already revoked: a revocation written by
    // another path (or by hand) may not have completed these steps.
    await afterRevocation(deps, [sessionId]);
    if (changed) ended({ sessionIds: [sessionId], reason });
    return changed;
  }

  return {
    onSessionsEnded(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    revokeSession,

    async revokeUserSessions(userId, reason, options) {
      const ids = await sessions.revokeAllOfUser(userId, reason, now(), options);
      await afterRevocation(deps, ids);
      ended({ sessionIds: ids, userId, reason });
      return ids.length;
    },

    async enforceLimit(userId) {
      const keep = policy.mode === 'Single' ? 1 : policy.maxConcurrent;
      if (!(keep > 0)) return 0;
      const reason: RevokeReason = policy.mode === 'Single' ? 'single-session' : 'max-concurrent';
      const ids = await sessions.trimToNewest(userId, keep, reason, now());
      await afterRevocation(deps, ids);
      ended({ sessionIds: ids, userId, reason });
      return ids.length;
    },

    async expireIfDue(row) {
      const expiry = await expiryOf(deps, row.id, snapshotOf(row, policy), now().getTime());
      if (expiry) await revokeSession(row.id, expiry);
      return expiry;
    },

    async recordActivity(sessionId, isMfa) {
      const at = now();
      if (!(await sessions.touch(sessionId, at))) {
        await writeTombstone(deps.cache, sessionId);
        return false;
      }
      await stampActivity(deps, sessionId, isMfa, at.getTime());
      return true;
    },
  };
}
