/**
 * Online sessions (contract §5 "Sessions"): the scoped list and forced logout. A forced logout revokes the
 * session row, marks its refresh tokens `Revoked` and replaces its cache copy with a tombstone (the session
 * manager does all three), so the next request with its access token answers 401.
 */
import { isInDataScope, type OnlineSessionQuery, type OnlineSessionRow, type Page } from '@svc/data';
import { BusinessError } from '@svc/kernel';
import type { AdminActor } from './actor.js';
import { AdminErrorCode } from './codes.js';
import type { ResolvedAdminDeps } from './deps.js';
import { assertOutranksUsers } from './rank.js';

/** An online session as the API shows it (contract §5 row shape). */
export interface OnlineSessionItem {
  sessionId: string;
  userId: number;
  account: string;
  ip: string | null;
  userAgent: string | null;
  loginTime: Date;
  lastActivityTime: Date;
  expiresAt: Date | null;
}

export interface OnlineSessionService {
  page(actor: AdminActor, query: OnlineSessionQuery): Promise<Page<OnlineSessionItem>>;
  /**
   * Forced logout: 42024 unknown or already ended, 41005 out of scope (the super admin's too), 42007 the super
   * admin's to others whose scope holds it, 41001 a user who outranks the caller.
   */
  forceLogout(actor: AdminActor, sessionId: string): Promise<void>;
}

export function toOnlineSessionItem(row: OnlineSessionRow): OnlineSessionItem {
  return {
    sessionId: row.id,
    userId: row.userId,
    account: row.account,
    ip: row.ip,
    userAgent: row.userAgent,
    loginTime: row.createTime,
    lastActivityTime: row.lastActivityTime,
    expiresAt: row.expiresAt,
  };
}

export function createOnlineSessionService(deps: ResolvedAdminDeps): OnlineSessionService {
  const { repos, now } = deps;
  return {
    async page(actor, query) {
      const page = await repos.onlineSessions.page(query, await actor.scope(), now());
      return { ...page, items: page.items.map(toOnlineSessionItem) };
    },

    async forceLogout(actor, sessionId) {
      const session = await repos.onlineSessions.findOnline(sessionId, now());
      if (!session) throw new BusinessError(AdminErrorCode.SessionNotFound);
      const user = await repos.users.findById(session.userId, { includeDeleted: true });
      // Scope before the protection: a caller who cannot list the session must not learn it is the super
      // admin's (42007 named which session ids were theirs to anyone holding the code), nor that it exists
      // (contract §11: a row the caller does not see answers as a missing one).
      if (!isInDataScope(await actor.scope(), { orgId: user?.orgId ?? null, ownerId: session.userId }))
        throw new BusinessError(AdminErrorCode.SessionNotFound);
      if (user?.isSuperAdmin && !actor.isSuperAdmin)
        throw new BusinessError(AdminErrorCode.SuperAdminProtected);
      await assertOutranksUsers(deps, actor, [session.userId]);
      await deps.sessions.revokeSession(sessionId, 'forced');
    },
  };
}
