/**
 * The personal centre: the caller's profile (read and a few fields written), own permission codes, own menu
 * tree (enabled and granted, under enabled parents), own online sessions and kicking one of them. For the
 * super admin the codes are every permission route of the running app and the menu tree is every enabled menu.
 */
import type { SysMenuRow } from '@svc/data';
import { BusinessError } from '@svc/kernel';
import type { UserPrincipal } from '../auth/principal.js';
import { AdminErrorCode } from './codes.js';
import type { ResolvedAdminDeps } from './deps.js';
import { type MenuNode, toMenuItem } from './menus.js';
import { type OnlineSessionItem, toOnlineSessionItem } from './online-sessions.js';
import { buildTree, withAncestors } from './tree.js';
import { toUserItem, type UserItem } from './users.js';

/** The caller's profile: the user item plus names of organisation, position and roles. */
export interface Profile extends UserItem {
  orgName: string | null;
  positionName: string | null;
  roles: { id: number; name: string; code: string }[];
  lastLoginIp: string | null;
}

/** Fields a user may change on their own profile. */
export interface ProfileFields {
  realName?: string | undefined;
  nickName?: string | null | undefined;
  phone?: string | null | undefined;
  email?: string | null | undefined;
  gender?: number | undefined;
  avatar?: string | null | undefined;
}

export interface PersonalSessionItem extends OnlineSessionItem {
  /** The session this request was made with. */
  current: boolean;
}

export interface PersonalService {
  profile(principal: UserPrincipal): Promise<Profile>;
  updateProfile(principal: UserPrincipal, fields: ProfileFields): Promise<void>;
  /** Own codes; `allCodes` supplies the super admin's (every permission route of the running app). */
  permissionCodes(principal: UserPrincipal, allCodes: () => string[]): Promise<string[]>;
  /** Own menu tree without buttons (buttons are codes, see `permissionCodes`). */
  menu(principal: UserPrincipal): Promise<MenuNode[]>;
  sessions(principal: UserPrincipal): Promise<PersonalSessionItem[]>;
  /** Ends one of the caller's own sessions; 42024 for a session that is not theirs or no longer online. */
  kickSession(principal: UserPrincipal, sessionId: string): Promise<void>;
}

/** Menus whose whole ancestor chain is enabled (a disabled catalog hides everything under it). */
function visibleMenus(rows: readonly SysMenuRow[]): SysMenuRow[] {
  const byId = new Map(rows.map((r) => [r.id, r] as const));
  const visible = new Map<number, boolean>();
  const isVisible = (row: SysMenuRow, depth = 0): boolean => {
    const known = visible.get(row.id);
    if (known !== undefined) return known;
    const parent = byId.get(row.parentId);
    // Depth guard: a corrupted cycle hides the nodes instead of recursing for ever.
    const result =
      row.enabled && depth < 64 && (row.parentId === 0 || !parent || isVisible(parent, depth + 1));
    visible.set(row.id, result);
    return result;
  };
  return rows.filter((r) => isVisible(r));
}

export function createPersonalService(deps: ResolvedAdminDeps): PersonalService {
  const { repos, now } = deps;
  const self = async (principal: UserPrincipal) => {
    const user = await repos.users.findById(principal.userId);
    if (!user) throw new BusinessError(AdminErrorCode.UserNotFound);
    return user;
  };

  return {
    async profile(principal) {
      const user = await self(principal);
      const roleIds = (await repos.users.roleIdsOf([user.id])).get(user.id) ?? [];
      const [org, position, roles] = await Promise.all([
        user.orgId === null ? undefined : repos.orgs.findById(user.orgId),
        user.positionId === null ? undefined : repos.positions.findById(user.positionId),
        repos.roles.findByIds(roleIds),
      ]);
      return {
        ...toUserItem(user, roleIds),
        orgName: org?.name ?? null,
        positionName: position?.name ?? null,
        roles: roles.map((r) => ({ id: r.id, name: r.name, code: r.code })),
        lastLoginIp: user.lastLoginIp,
      };
    },

    async updateProfile(principal, fields) {
      const patch = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      const ok = await repos.users.update(principal.userId, patch, { userId: principal.userId, at: now() });
      if (!ok) throw new BusinessError(AdminErrorCode.UserNotFound);
    },

    async permissionCodes(principal, allCodes) {
      if (principal.isSuperAdmin) return [...new Set(allCodes())].sort();
      return [...(await deps.permissions.codesOf(principal.userId))].sort();
    },

    async menu(principal) {
      const all = visibleMenus(await repos.menus.listAll());
      const nonButtons = all.filter((m) => m.type !== 'button');
      if (principal.isSuperAdmin) return buildTree(nonButtons.map(toMenuItem));
      const granted = new Set((await repos.menus.grantedToUser(principal.userId)).map((m) => m.id));
      // A granted button makes its menu visible, so a role holding only buttons still sees where they live.
      const wanted = new Set<number>();
      for (const m of all) if (granted.has(m.id)) wanted.add(m.type === 'button' ? m.parentId : m.id);
      return buildTree(withAncestors(nonButtons, wanted).map(toMenuItem));
    },

    async sessions(principal) {
      const rows = await repos.onlineSessions.listOfUser(principal.userId, now());
      return rows.map((r) => ({ ...toOnlineSessionItem(r), current: r.id === principal.sessionId }));
    },

    async kickSession(principal, sessionId) {
      const session = await repos.onlineSessions.findOnline(sessionId, now());
      if (!session || session.userId !== principal.userId)
        throw new BusinessError(AdminErrorCode.SessionNotFound);
      await deps.sessions.revokeSession(sessionId, 'kicked');
    },
  };
}
