/**
 * The recycle bin: a registry of soft-deletable types. Each type pages its soft-deleted rows, restores one
 * (a unique key now taken by a live row → 42021) and purges one for good. Users and roles are hand-written
 * types; every other soft-deletable table is one `SoftDeleteBinEntry` (table key, display, hooks) over the
 * generic trash repository — organisations, positions and menus here, the other tables in the module that owns
 * them (a server module's `recycleTypes`). Unknown type → 42022; not in the bin → 42020.
 */
import {
  isInDataScope,
  type Page,
  type PageQuery,
  permissionCode,
  type Repositories,
  type SoftDeleteKey,
  splitPermissionCodes,
  type TrashPurgeKey,
  type TrashRow,
  uniqueOr,
} from '@svc/data';
import { BusinessError } from '@svc/kernel';
import { type AdminActor, assertCanGrant, assertHolds } from './actor.js';
import { AdminErrorCode } from './codes.js';
import type { ResolvedAdminDeps } from './deps.js';
import { assertOrgInScope } from './orgs.js';
import { codesOfPermissionTexts } from './permission-codes.js';
import { assertMayChangeRole, assertOutranksUsers, assertScopeWithin } from './rank.js';

/** One soft-deleted row as the recycle bin lists it. */
export interface RecycleItem {
  id: number;
  /** What the row is called (account, role name, …). */
  title: string;
  /** A second line (real name, role code, …). */
  subtitle: string | null;
  /** When it was deleted (its last update). */
  deleteTime: Date | null;
  deleteUserId: number | null;
}

/** A soft-deletable type. Methods throw `BusinessError` (42020 not in the bin, 42021 unique clash, …). */
export interface RecycleBinType {
  /** Path segment of `/sys/recycle/{type}`, matched case-insensitively (`user`, `role`, a consumer's `order`). */
  readonly type: string;
  /** Display name. */
  readonly title: string;
  /**
   * Restoring needs the re-authentication window, as the type's own writes do (spec: the default high-sensitivity
   * set holds user, role, menu, system-config and scheduled-job writes; bringing such a row back is one).
   */
  readonly reauth?: boolean;
  /**
   * Codes a caller needs to restore or purge a row of this type besides the bin's own: the code of the type's
   * own delete route ({@link deleteCodeOf}). Bringing a row back undoes its delete and purging finishes it, so
   * the bin's codes alone do not reach types whose writes the caller may not make (41001 naming the codes
   * lacking). A type without codes asks only the bin's.
   */
  readonly codes?: readonly string[];
  page(actor: AdminActor, query: PageQuery): Promise<Page<RecycleItem>>;
  restore(actor: AdminActor, id: number): Promise<void>;
  purge(actor: AdminActor, id: number): Promise<void>;
}

export interface RecycleBinRegistry {
  /** Adds a type; throws when its name is taken. */
  register(type: RecycleBinType): void;
  /** The type named `name` (any case); throws 42022 when none is registered. */
  get(name: string): RecycleBinType;
  /**
   * Registered type names with their titles and {@link RecycleBinType.codes} (empty when the type asks only the
   * bin's), so a console shows restore and purge only to whom the service lets through.
   */
  list(): { type: string; title: string; codes: string[] }[];
}

/** The permission code of `DELETE /api/v1{route}`: what a bin type's {@link RecycleBinType.codes} name. */
export const deleteCodeOf = (route: string): string => permissionCode('DELETE', `/api/v1${route}`);

/** The type with its restore and purge asking for its {@link RecycleBinType.codes} first. */
function guarded(type: RecycleBinType): RecycleBinType {
  const codes = type.codes ?? [];
  if (codes.length === 0) return type;
  return {
    type: type.type,
    title: type.title,
    ...(type.reauth ? { reauth: true } : {}),
    codes,
    page: (actor, query) => type.page(actor, query),
    async restore(actor, id) {
      await assertHolds(actor, codes);
      await type.restore(actor, id);
    },
    async purge(actor, id) {
      await assertHolds(actor, codes);
      await type.purge(actor, id);
    },
  };
}

/** Creates an empty registry. */
export function createRecycleBinRegistry(): RecycleBinRegistry {
  const types = new Map<string, RecycleBinType>();
  return {
    register(type) {
      const key = type.type.trim().toLowerCase();
      if (!/^[a-z0-9_-]{1,64}$/.test(key))
        throw new Error(`Recycle-bin type "${type.type}" is not a path segment.`);
      if (types.has(key)) throw new Error(`Recycle-bin type "${key}" is already registered.`);
      types.set(key, guarded(type));
    },
    get(name) {
      const type = types.get(name.trim().toLowerCase());
      if (!type) throw new BusinessError(AdminErrorCode.RecycleInvalidType);
      return type;
    },
    list() {
      return [...types.entries()].map(([type, t]) => ({ type, title: t.title, codes: [...(t.codes ?? [])] }));
    },
  };
}

const notInBin = () => new BusinessError(AdminErrorCode.RecycleNotFound);

/** Users: scoped like every user read and write (one outside the scope is not in the bin, 42020); restoring an account a live user now holds → 42021. */
export function userRecycleType(deps: ResolvedAdminDeps): RecycleBinType {
  const { repos, now } = deps;
  async function deleted(actor: AdminActor, id: number) {
    const row = await repos.users.findById(id, { includeDeleted: true });
    // One outside the caller's scope is not in their bin, as for a missing one (contract §11).
    if (!row?.isDelete || !isInDataScope(await actor.scope(), { orgId: row.orgId, ownerId: row.id }))
      throw notInBin();
    return row;
  }
  return {
    type: 'user',
    title: 'Users',
    reauth: true,
    codes: [deleteCodeOf('/sys/user/{id}')],
    async page(actor, query) {
      const page = await repos.users.pageDeleted(query, await actor.scope());
      return {
        ...page,
        items: page.items.map((u) => ({
          id: u.id,
          title: u.account,
          subtitle: u.realName,
          deleteTime: u.updateTime,
          deleteUserId: u.updateUserId,
        })),
      };
    },
    async restore(actor, id) {
      const row = await deleted(actor, id);
      if (await repos.users.accountTaken(row.account))
        throw new BusinessError(AdminErrorCode.RecycleUniqueConflict, {
          field: 'account',
          value: row.account,
        });
      // The user's roles come back with them: they may not grant more than the restorer holds.
      const roleIds = (await repos.users.roleIdsOf([id])).get(id) ?? [];
      await assertCanGrant(actor, codesOfPermissionTexts(await repos.roles.permissionsOfRoles(roleIds)));
      await assertScopeWithin(deps, actor, await repos.roles.scopesOfRoles(roleIds), [row]);
      const conflict = () =>
        new BusinessError(AdminErrorCode.RecycleUniqueConflict, { field: 'account', value: row.account });
      if (!(await uniqueOr(() => repos.users.restore(id, { userId: actor.userId, at: now() }), conflict)))
        throw notInBin();
      await deps.permissions.invalidateUser(id);
    },
    async purge(actor, id) {
      await deleted(actor, id);
      // Purging is deleting for good: as for deleting a live user, nobody acts on someone who outranks them.
      await assertOutranksUsers(deps, actor, [id]);
      if (!(await repos.users.purge(id))) throw notInBin();
    },
  };
}

/** Roles: restoring a code a live role now holds → 42021; restoring re-activates grants (escalation check). */
export function roleRecycleType(deps: ResolvedAdminDeps): RecycleBinType {
  const { repos, now } = deps;
  async function deleted(id: number) {
    const row = await repos.roles.findById(id, { includeDeleted: true });
    if (!row?.isDelete) throw notInBin();
    return row;
  }
  return {
    type: 'role',
    title: 'Roles',
    reauth: true,
    codes: [deleteCodeOf('/sys/role/{id}')],
    async page(_actor, query) {
      const page = await repos.roles.pageDeleted(query);
      return {
        ...page,
        items: page.items.map((r) => ({
          id: r.id,
          title: r.name,
          subtitle: r.code,
          deleteTime: r.updateTime,
          deleteUserId: r.updateUserId,
        })),
      };
    },
    async restore(actor, id) {
      const row = await deleted(id);
      if (await repos.roles.codeTaken(row.code))
        throw new BusinessError(AdminErrorCode.RecycleUniqueConflict, { field: 'code', value: row.code });
      await assertCanGrant(actor, codesOfPermissionTexts(await repos.roles.permissionsOfRoles([id])));
      // Its holders get it back: the restorer must outrank them all, inside their data scope.
      await assertMayChangeRole(deps, actor, id);
      // Its members get it back: none may come to see beyond the restorer.
      const members = await repos.users.findByIds(await repos.roles.memberIdsOf(id));
      const scopes = await repos.roles.scopesOfRoles([id], { includeDeleted: true });
      await assertScopeWithin(deps, actor, scopes, members);
      const conflict = () =>
        new BusinessError(AdminErrorCode.RecycleUniqueConflict, { field: 'code', value: row.code });
      if (!(await uniqueOr(() => repos.roles.restore(id, { userId: actor.userId, at: now() }), conflict)))
        throw notInBin();
      await deps.permissions.invalidateAll();
    },
    async purge(actor, id) {
      await deleted(id);
      await assertMayChangeRole(deps, actor, id);
      if (!(await repos.roles.purge(id))) throw notInBin();
      await deps.permissions.invalidateAll();
    },
  };
}

/**
 * One soft-deletable table in the bin, as data: which table, how a row is shown, and the hooks of its rules.
 * `softDeleteRecycleType` turns it into a {@link RecycleBinType}; adding a type (jobs, notices, a consumer's
 * table) is one entry.
 * @example recycleBin.register(softDeleteRecycleType(deps, { type: 'position', title: 'Positions', table: 'sysPosition', describe: (r) => ({ title: r.name, subtitle: r.code }) }));
 */
export interface SoftDeleteBinEntry<K extends SoftDeleteKey> {
  type: string;
  title: string;
  /** Restoring needs the re-authentication window ({@link RecycleBinType.reauth}). */
  reauth?: boolean;
  /** Codes restore and purge need besides the bin's ({@link RecycleBinType.codes}). */
  codes?: readonly string[];
  /** Table key in `Tables` (`sysPosition`). */
  table: K;
  describe(row: TrashRow<K>): { title: string; subtitle: string | null };
  /** Rows are visible only to callers whose data scope holds their creator (the files rule of contract §10). */
  scopedByCreator?: boolean;
  /** The row's live-unique key, named in 42021 when a live row holds it now (the database enforces it). */
  uniqueKey?(row: TrashRow<K>): { field: string; value: string };
  /** Throws when the row may not come back (a deleted parent, an escalation); runs before the restore. */
  checkRestore?(actor: AdminActor, row: TrashRow<K>): Promise<void>;
  /** Throws when the row may not be purged (an escalation); runs before the purge. */
  checkPurge?(actor: AdminActor, row: TrashRow<K>): Promise<void>;
  /** Columns set by the restore statement itself (a job comes back paused: `{ status: 2 }`). */
  restoreValues?: Partial<TrashRow<K>>;
  /** Runs after the restore (caches are invalidated, receivers told). */
  afterRestore?(actor: AdminActor, row: TrashRow<K>): Promise<void>;
  /**
   * Hard-deletes the soft-deleted row in place of the generic purge, answering false when it was not in the bin:
   * for a row whose dependent rows must go in the same transaction (a notice's receivers and read marks).
   * @default undefined (the trash repository deletes the row alone)
   */
  purgeRow?(row: TrashRow<K>): Promise<boolean>;
  /** Runs after the purge (stored bytes removed, links dropped). */
  afterPurge?(actor: AdminActor, row: TrashRow<K>): Promise<void>;
}

/** What {@link softDeleteRecycleType} needs: the trash repository and the clock of the audit stamp. */
export interface ResolvedRecycleDeps {
  repos: Pick<Repositories, 'trash'>;
  now: () => Date;
}

/** Builds a bin type from an entry over the generic trash repository. */
export function softDeleteRecycleType<K extends SoftDeleteKey>(
  deps: ResolvedRecycleDeps,
  entry: SoftDeleteBinEntry<K>,
): RecycleBinType {
  const { trash } = deps.repos;
  const scopeOf = async (actor: AdminActor) => (entry.scopedByCreator ? await actor.scope() : undefined);
  async function deleted(actor: AdminActor, id: number): Promise<TrashRow<K>> {
    const row = await trash.findDeleted(entry.table, id, await scopeOf(actor));
    if (!row) throw notInBin();
    return row;
  }
  const audit = (row: TrashRow<K>) =>
    row as unknown as { id: number; updateTime: Date | null; updateUserId: number | null };
  return {
    type: entry.type,
    title: entry.title,
    ...(entry.reauth ? { reauth: true } : {}),
    ...(entry.codes ? { codes: entry.codes } : {}),
    async page(actor, query) {
      const page = await trash.page(entry.table, query, await scopeOf(actor));
      return {
        ...page,
        items: page.items.map((row) => ({
          id: audit(row).id,
          ...entry.describe(row),
          deleteTime: audit(row).updateTime,
          deleteUserId: audit(row).updateUserId,
        })),
      };
    },
    async restore(actor, id) {
      const row = await deleted(actor, id);
      await entry.checkRestore?.(actor, row);
      const conflict = () =>
        new BusinessError(AdminErrorCode.RecycleUniqueConflict, entry.uniqueKey?.(row) ?? {});
      const stamp = { userId: actor.userId, at: deps.now() };
      if (!(await uniqueOr(() => trash.restore(entry.table, id, stamp, entry.restoreValues), conflict)))
        throw notInBin();
      await entry.afterRestore?.(actor, row);
    },
    async purge(actor, id) {
      const row = await deleted(actor, id);
      await entry.checkPurge?.(actor, row);
      const purged = entry.purgeRow
        ? await entry.purgeRow(row)
        : // The generic purge refuses users (it skips the modules' hooks): a user bin type brings purgeRow.
          await trash.purge(entry.table as TrashPurgeKey, id);
      if (!purged) throw notInBin();
      await entry.afterPurge?.(actor, row);
    },
  };
}

/** Kernel entries the administration services own: organisations, positions and menus. */
export function adminRecycleEntries(deps: ResolvedAdminDeps): RecycleBinType[] {
  const { repos, permissions } = deps;
  return [
    softDeleteRecycleType(deps, {
      type: 'org',
      codes: [deleteCodeOf('/sys/org/{id}')],
      title: 'Organisations',
      table: 'sysOrg',
      describe: (r) => ({ title: r.name, subtitle: r.code }),
      // Its code comes back into the unique index (a row kept as a duplicate by the migration too): 42021 when a
      // live organisation holds it now.
      uniqueKey: (r) => ({ field: 'code', value: r.code }),
      restoreValues: { liveExempt: false },
      // A child comes back only under a live parent: restore the parent first (42008); one the restorer sees, as
      // creating it there would need (41005; the top level is for callers who see all).
      async checkRestore(actor, row) {
        if (row.parentId !== 0 && !(await repos.orgs.findById(row.parentId)))
          throw new BusinessError(AdminErrorCode.OrgInvalidParent, { parentId: row.parentId });
        await assertOrgInScope(actor, row.parentId);
      },
      // Purging is deleting for good: by someone who sees where it was.
      checkPurge: (actor, row) => assertOrgInScope(actor, row.parentId),
      afterRestore: async () => void (await permissions.invalidateAll()),
    }),
    softDeleteRecycleType(deps, {
      type: 'position',
      codes: [deleteCodeOf('/sys/position/{id}')],
      title: 'Positions',
      table: 'sysPosition',
      describe: (r) => ({ title: r.name, subtitle: r.code }),
    }),
    softDeleteRecycleType(deps, {
      type: 'menu',
      codes: [deleteCodeOf('/sys/menu/{id}')],
      title: 'Menus',
      reauth: true,
      table: 'sysMenu',
      describe: (r) => ({ title: r.title, subtitle: r.permission ?? r.path }),
      async checkRestore(actor, row) {
        // Under a live parent (42030) and in a live module (42011); its codes come back under every grant it
        // still has, so the restorer must hold them (41001).
        if (row.parentId !== 0) {
          const parent = await repos.menus.findById(row.parentId);
          if (!parent || parent.type === 'button') throw new BusinessError(AdminErrorCode.MenuInvalidParent);
        }
        if (row.moduleId !== null && !(await repos.modules.findById(row.moduleId)))
          throw new BusinessError(AdminErrorCode.ModuleNotFound);
        if (row.enabled) await assertCanGrant(actor, splitPermissionCodes(row.permission));
      },
      // Purging takes the menu's codes from every role still granting it for good, which only someone who holds
      // them and may change those roles does (as deleting a live menu asks).
      async checkPurge(actor, row) {
        const codes = splitPermissionCodes(row.permission);
        if (actor.isSuperAdmin || codes.length === 0) return;
        const granting = await repos.roles.idsGrantingMenu(row.id);
        if (granting.length === 0) return;
        // The codes no longer count for those roles while the menu is in the bin, but its restore gives them back:
        // the purger must hold them, as the restorer must.
        await assertCanGrant(actor, codes);
        for (const roleId of granting) await assertMayChangeRole(deps, actor, roleId);
      },
      // Its grants go with it: left behind, they granted a seeded menu again when the upgrade re-inserted its id.
      afterPurge: async (_actor, row) => {
        await repos.roles.dropMenuGrants(row.id);
        await permissions.invalidateAll();
      },
      afterRestore: async () => void (await permissions.invalidateAll()),
    }),
  ];
}
