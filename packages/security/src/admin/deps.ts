/**
 * What the administration services are built from. Everything is passed in (repositories, the session manager
 * that revokes, the permission cache that is invalidated, runtime settings, clock), so tests pin the clock and
 * consumers replace any part.
 */
import type { Repositories } from '@svc/data';
import type { PermissionCache } from '../auth/permissions.js';
import type { SessionManager } from '../auth/session-manager.js';
import type { RuntimeSettings } from '../runtime-config.js';

/** Dependencies of `createAdminServices`. */
export interface AdminDeps {
  repos: Pick<
    Repositories,
    | 'users'
    | 'roles'
    | 'menus'
    | 'orgs'
    | 'positions'
    | 'onlineSessions'
    | 'passwordHistory'
    | 'modules'
    | 'trash'
    | 'dicts'
    | 'files'
    | 'dashboard'
  >;
  /** Revokes sessions of disabled or deleted users and forced logouts. */
  sessions: Pick<SessionManager, 'revokeSession' | 'revokeUserSessions'>;
  /** Permission codes per user; invalidated after every grant change. */
  permissions: PermissionCache;
  /** Password policy (history count, `forceChangeOnFirstLogin`), read at every use. */
  settings: Pick<RuntimeSettings, 'passwordPolicy'>;
  /**
   * `Service:Security:DefaultInitialPassword`: the password of created and reset users; when null a strong
   * random one is generated per account and returned once.
   * @default null
   */
  defaultInitialPassword?: string | null;
  /**
   * PBKDF2 iterations of new hashes (`Service:Security:Password:Pbkdf2Iterations`), floored at 100,000.
   * @default 600000
   */
  pbkdf2Iterations?: number;
  /** Clock of audit columns and session lists. @default () => new Date() */
  now?: () => Date;
  /**
   * Called after a menu is created, so cached portal answers that list every menu (the super admin's) are
   * retired; updates and deletes already bump the permission generations the portal entries record.
   * @default no-op
   */
  menusChanged?: () => Promise<unknown>;
}

/** The deps with defaults applied (internal). */
export type ResolvedAdminDeps = Omit<
  AdminDeps,
  'defaultInitialPassword' | 'pbkdf2Iterations' | 'now' | 'menusChanged'
> & {
  menusChanged: () => Promise<unknown>;
  defaultInitialPassword: string | null;
  pbkdf2Iterations: number;
  now: () => Date;
};
