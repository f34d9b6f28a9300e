/**
 * The recycle bin: a registry of soft-deletable types. Each type pages its soft-deleted rows, restores one
 * (a unique key now taken by a live row → 42021) and purges one for good. Users and roles are built in;
 * consumers register their own types at start-up. Unknown type → 42022; a row that is not in the bin → 42020.
 */
import { isInDataScope, type Page, type PageQuery, uniqueOr } from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';
import { type AdminActor, assertCanGrant } from './actor.js';
import type { ResolvedAdminDeps } from './deps.js';
import { codesOfPermissionTexts } from './permission-codes.js';

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
  page(actor: AdminActor, query: PageQuery): Promise<Page<RecycleItem>>;
  restore(actor: AdminActor, id: number): Promise<void>;
  purge(actor: AdminActor, id: number): Promise<void>;
}

export interface RecycleBinRegistry {
  /** Adds a type; throws when its name is taken. */
  register(type: RecycleBinType): void;
  /** The type named `name` (any case); throws 42022 when none is registered. */
  get(name: string): RecycleBinType;
  /** Registered type names with their titles. */
  list(): { type: string; title: string }[];
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
      types.set(key, type);
    },
    get(name) {
      const type = types.get(name.trim().toLowerCase());
      if (!type) throw new BusinessError(ErrorCode.RecycleInvalidType);
      return type;
    },
    list() {
      return [...types.entries()].map(([type, t]) => ({ type, title: t.title }));
    },
  };
}

const notInBin = () => new BusinessError(ErrorCode.RecycleNotFound);

/** Users: scoped like every user read and write; restoring an account a live user now holds → 42021. */
export function userRecycleType(deps: ResolvedAdminDeps): RecycleBinType {
  const { repos, now } = deps;
  async function deleted(actor: AdminActor, id: number) {
    const row = await repos.users.findById(id, { includeDeleted: true });
    if (!row?.isDelete) throw notInBin();
    if (!isInDataScope(await actor.scope(), { orgId: row.orgId, ownerId: row.id }))
      throw new BusinessError(ErrorCode.OutOfDataScope);
    return row;
  }
  return {
    type: 'user',
    title: 'Users',
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
        throw new BusinessError(ErrorCode.RecycleUniqueConflict, { field: 'account', value: row.account });
      // The user's roles come back with them: they may not grant more than the restorer holds.
      const roleIds = (await repos.users.roleIdsOf([id])).get(id) ?? [];
      await assertCanGrant(actor, codesOfPermissionTexts(await repos.roles.permissionsOfRoles(roleIds)));
      const conflict = () =>
        new BusinessError(ErrorCode.RecycleUniqueConflict, { field: 'account', value: row.account });
      if (!(await uniqueOr(() => repos.users.restore(id, { userId: actor.userId, at: now() }), conflict)))
        throw notInBin();
      await deps.permissions.invalidateUser(id);
    },
    async purge(actor, id) {
      await deleted(actor, id);
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
        throw new BusinessError(ErrorCode.RecycleUniqueConflict, { field: 'code', value: row.code });
      await assertCanGrant(actor, codesOfPermissionTexts(await repos.roles.permissionsOfRoles([id])));
      const conflict = () =>
        new BusinessError(ErrorCode.RecycleUniqueConflict, { field: 'code', value: row.code });
      if (!(await uniqueOr(() => repos.roles.restore(id, { userId: actor.userId, at: now() }), conflict)))
        throw notInBin();
      await deps.permissions.invalidateAll();
    },
    async purge(_actor, id) {
      await deleted(id);
      if (!(await repos.roles.purge(id))) throw notInBin();
      await deps.permissions.invalidateAll();
    },
  };
}
