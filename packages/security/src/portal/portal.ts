/**
 * The caller's portal: the modules they can reach (through granted menus; every enabled module for the super
 * admin) with their default module, the sidebar tree of one module, and choosing the default module.
 *
 * Answers are cached per user in the shared cache and used only while three counters still match: the portal
 * generation (bumped by `rebuild-portal` and every module write), and the permission cache's global and
 * per-user generations (bumped by every menu, role-menu, role and user-role change, which are exactly the
 * changes that alter which menus a user is granted). As in the permission cache, nothing is deleted: a load
 * that raced an invalidation is stored under the older counters and never read again. No in-process memo, so
 * an invalidation on one instance takes effect on the next request on every other.
 */
import type { SysModuleRow } from '@svc/data';
import { BusinessError } from '@svc/kernel';
import { AdminErrorCode } from '../admin/codes.js';
import type { MenuNode } from '../admin/menus.js';
import { PERMISSION_GENERATION_KEY, PERMISSION_USER_GENERATION_PREFIX } from '../auth/constants.js';
import type { UserPrincipal } from '../auth/principal.js';
import type { PortalDeps } from './deps.js';
import { isSystemModule } from './modules.js';

/** Counter of the portal generation: portal entries record it, so a bump retires them all. */
export const PORTAL_GENERATION_KEY = 'portal:gen';

/** Prefix of the per-user portal entries. */
export const PORTAL_KEY_PREFIX = 'portal:u:';

/** A module as the caller's portal shows it. */
export interface PortalModule {
  id: number;
  code: string;
  title: string;
  icon: string | null;
  defaultRoute: string | null;
  apiPrefix: string | null;
  sort: number;
}

export interface MyModules {
  modules: PortalModule[];
  /** The chosen default when still reachable, else the first reachable module, else null. */
  defaultModuleId: number | null;
}

export interface PortalService {
  modules(principal: UserPrincipal): Promise<MyModules>;
  /** The caller's menu tree; with `moduleId`, only that module's top-level menus (42014 when unreachable). */
  menu(principal: UserPrincipal, moduleId?: number): Promise<MenuNode[]>;
  /** 42014 when the module is not reachable for the caller. */
  setDefaultModule(principal: UserPrincipal, moduleId: number): Promise<void>;
}

interface Entry {
  p: number;
  g: number;
  u: number;
  modules: PortalModule[];
  tree: MenuNode[];
}

const toPortalModule = (row: SysModuleRow): PortalModule => ({
  id: row.id,
  code: row.code,
  title: row.title,
  icon: row.icon,
  defaultRoute: row.defaultRoute,
  apiPrefix: row.apiPrefix,
  sort: row.sort,
});

/**
 * Builds the portal service.
 * @example const portal = createPortalService({ ...deps, menuTree: (p) => admin.personal.menu(p) });
 */
export function createPortalService(
  deps: PortalDeps & { menuTree(principal: UserPrincipal): Promise<MenuNode[]> },
): PortalService {
  const { cache, repos, ttlMs } = deps;

  async function entryOf(principal: UserPrincipal): Promise<Entry> {
    const key = `${PORTAL_KEY_PREFIX}${principal.userId}`;
    // Counters before the database: data loaded from an older state is stored under older counters.
    const [p, g, u, cached] = await Promise.all([
      cache.getCounter(PORTAL_GENERATION_KEY),
      cache.getCounter(PERMISSION_GENERATION_KEY),
      cache.getCounter(`${PERMISSION_USER_GENERATION_PREFIX}${principal.userId}`),
      cache.get<Entry>(key),
    ]);
    if (cached && cached.p === p && cached.g === g && cached.u === u && Array.isArray(cached.modules))
      return cached;
    const [tree, rows] = await Promise.all([deps.menuTree(principal), repos.modules.listAll()]);
    const reachable = new Set(tree.flatMap((n) => (n.moduleId === null ? [] : [n.moduleId])));
    const modules = rows
      // `system` counts as enabled whatever its row says: a database whose `system` was disabled before the
      // module refused it (42013) must not keep every console out of the pages that would enable it again.
      .filter((m) => (m.enabled || isSystemModule(m)) && (principal.isSuperAdmin || reachable.has(m.id)))
      .map(toPortalModule);
    const entry: Entry = { p, g, u, modules, tree };
    await cache.set(key, entry, ttlMs);
    return entry;
  }

  const reachableOrFail = (entry: Entry, moduleId: number) => {
    if (!entry.modules.some((m) => m.id === moduleId))
      throw new BusinessError(AdminErrorCode.ModuleAccessDenied);
  };

  return {
    async modules(principal) {
      const [entry, user] = await Promise.all([entryOf(principal), repos.users.findById(principal.userId)]);
      const chosen = user?.defaultModuleId ?? null;
      const defaultModuleId = entry.modules.some((m) => m.id === chosen)
        ? chosen
        : (entry.modules[0]?.id ?? null);
      return { modules: entry.modules, defaultModuleId };
    },

    async menu(principal, moduleId) {
      const entry = await entryOf(principal);
      if (moduleId === undefined) return entry.tree;
      reachableOrFail(entry, moduleId);
      return entry.tree.filter((n) => n.moduleId === moduleId);
    },

    async setDefaultModule(principal, moduleId) {
      reachableOrFail(await entryOf(principal), moduleId);
      const done = await repos.users.update(
        principal.userId,
        { defaultModuleId: moduleId },
        { userId: principal.userId, at: deps.now() },
      );
      if (!done) throw new BusinessError(AdminErrorCode.UserNotFound);
    },
  };
}
