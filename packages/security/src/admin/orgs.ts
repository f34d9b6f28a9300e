/**
 * Organisation administration: the list, detail, create, update (a move may not put an organisation under
 * itself or a descendant, 42008) and delete (refused with children, 42004, or live users, 42027).
 *
 * The list is open to the route's code (the tree is what every organisation picker shows). A read or write by id
 * of an organisation outside the caller's data scope answers as a missing one does (42003, contract §11): a
 * caller who does not see all reads, changes, disables, deletes or copies only organisations in their scope.
 * Placing one under a parent they do not see answers 41005 (`reason: data-scope`, `args.orgIds`), and a new
 * top-level organisation (parent 0) is for callers who see all.
 */
import { descendantOrgIds, type OrgListQuery, type SysOrgRow, uniqueOr } from '@svc/data';
import { BusinessError, ErrorCode, type ErrorCodeMember } from '@svc/kernel';
import type { AdminActor } from './actor.js';
import { AdminErrorCode } from './codes.js';
import type { ResolvedAdminDeps } from './deps.js';
import type { Patch } from './patch.js';
import { wouldCreateCycle } from './tree.js';

/** An organisation as the administration API shows it. */
export type OrgItem = Pick<
  SysOrgRow,
  | 'id'
  | 'parentId'
  | 'name'
  | 'code'
  | 'sort'
  | 'enabled'
  | 'leader'
  | 'phone'
  | 'remark'
  | 'createTime'
  | 'updateTime'
>;

export type OrgFields = Patch<
  Pick<SysOrgRow, 'parentId' | 'name' | 'code' | 'sort' | 'enabled' | 'leader' | 'phone' | 'remark'>
>;

export interface CreateOrgInput extends OrgFields {
  name: string;
  code: string;
}

export interface OrgAdminService {
  list(actor: AdminActor, query: OrgListQuery): Promise<OrgItem[]>;
  detail(actor: AdminActor, id: number): Promise<OrgItem>;
  create(actor: AdminActor, input: CreateOrgInput): Promise<{ id: number }>;
  update(actor: AdminActor, id: number, input: OrgFields): Promise<void>;
  remove(actor: AdminActor, id: number): Promise<void>;
  /**
   * Clones the organisation and its live subtree as a sibling (same parent), in one transaction. The copy's
   * root is called `name` (default "<name> (copy)"); every copied code gets a `-copy` suffix, numbered when
   * taken, so codes stay distinct among live organisations. Users are not copied. Answers the new root id.
   */
  copy(actor: AdminActor, id: number, name?: string): Promise<{ id: number }>;
}

/** Longest organisation code (`sys_org.code`). */
const CODE_MAX = 64;

export function toOrgItem(row: SysOrgRow): OrgItem {
  return {
    id: row.id,
    parentId: row.parentId,
    name: row.name,
    code: row.code,
    sort: row.sort,
    enabled: row.enabled,
    leader: row.leader,
    phone: row.phone,
    remark: row.remark,
    createTime: row.createTime,
    updateTime: row.updateTime,
  };
}

const fail = (member: ErrorCodeMember) => new BusinessError(member);
const defined = (input: object) =>
  Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));

/**
 * Refuses (41005, `args.orgIds`) a write to organisation `orgId` (0: the top level) by a caller who does not see
 * it: the one rule of organisation writes, also for the recycle bin's restore and purge (under the row's parent).
 */
export async function assertOrgInScope(actor: AdminActor, orgId: number): Promise<void> {
  if (actor.isSuperAdmin) return;
  const mine = await actor.scope();
  if (mine.all || (orgId !== 0 && mine.orgIds.includes(orgId))) return;
  throw new BusinessError(ErrorCode.OutOfDataScope, { reason: 'data-scope', orgIds: [orgId] });
}

/** A live organisation the caller sees (contract §11): 42003 alike for a missing one and one outside the scope. */
async function visibleOrg(deps: ResolvedAdminDeps, actor: AdminActor, id: number): Promise<SysOrgRow> {
  const row = await deps.repos.orgs.findById(id);
  if (row && !actor.isSuperAdmin) {
    const mine = await actor.scope();
    if (!mine.all && !mine.orgIds.includes(id)) throw new BusinessError(AdminErrorCode.OrgNotFound);
  }
  if (!row) throw new BusinessError(AdminErrorCode.OrgNotFound);
  return row;
}

export function createOrgAdminService(deps: ResolvedAdminDeps): OrgAdminService {
  const { repos, now } = deps;
  const stamp = (actor: AdminActor) => ({ userId: actor.userId, at: now() });

  async function checkParent(parentId: number): Promise<void> {
    if (parentId !== 0 && !(await repos.orgs.findById(parentId))) throw fail(AdminErrorCode.OrgInvalidParent);
  }

  return {
    async list(_actor, query) {
      return (await repos.orgs.list(query)).map(toOrgItem);
    },

    async detail(actor, id) {
      return toOrgItem(await visibleOrg(deps, actor, id));
    },

    async create(actor, input) {
      const parentId = input.parentId ?? 0;
      await checkParent(parentId);
      await assertOrgInScope(actor, parentId);
      const at = now();
      const code = input.code;
      const taken = () => new BusinessError(AdminErrorCode.OrgCodeExists, { code });
      // A given code is unique among live organisations, ignoring case; the database keeps it so under races.
      if (code.trim() !== '' && (await repos.orgs.codeTaken(code))) throw taken();
      const id = await uniqueOr(
        () =>
          repos.orgs.insert({
            ...defined(input),
            parentId,
            name: input.name,
            code,
            createTime: at,
            createUserId: actor.userId,
          }),
        taken,
      );
      return { id };
    },

    async update(actor, id, input) {
      const row = await visibleOrg(deps, actor, id);
      if (input.parentId !== undefined && input.parentId !== row.parentId) {
        await checkParent(input.parentId);
        await assertOrgInScope(actor, input.parentId);
        const links = await repos.orgs.links();
        if (wouldCreateCycle(links, id, input.parentId)) throw fail(AdminErrorCode.OrgInvalidParent);
        // Org-and-children scopes follow the tree: moving an organisation brings its subtree into the view of
        // whoever sees the new parent's tree, so a caller who does not see all may move only what they see whole.
        const mine = actor.isSuperAdmin ? undefined : await actor.scope();
        if (mine && !mine.all) {
          const outside = descendantOrgIds(links, [id]).filter((orgId) => !mine.orgIds.includes(orgId));
          if (outside.length > 0)
            throw new BusinessError(ErrorCode.OutOfDataScope, { reason: 'data-scope', orgIds: outside });
        }
      }
      // A new code must be free; the stored one saves unchanged (a row kept as a duplicate by the migration stays).
      const code = input.code;
      const changed = code !== undefined && code.toLowerCase() !== row.code.toLowerCase();
      const taken = () => new BusinessError(AdminErrorCode.OrgCodeExists, { code });
      if (changed && code.trim() !== '' && (await repos.orgs.codeTaken(code, id))) throw taken();
      const patch = changed ? { ...defined(input), liveExempt: false } : defined(input);
      await uniqueOr(() => repos.orgs.update(id, patch, stamp(actor)), taken);
    },

    async copy(actor, id, name) {
      const source = await visibleOrg(deps, actor, id);
      // As create: the copy goes under a live parent (the source's), 42008 otherwise, that the caller sees.
      await checkParent(source.parentId);
      await assertOrgInScope(actor, source.parentId);
      const live = await repos.orgs.list({});
      const taken = new Set(live.map((o) => o.code.toLowerCase()));
      const freeCode = (code: string) => {
        for (let n = 1; ; n++) {
          const suffix = n === 1 ? '-copy' : `-copy${n}`;
          const candidate = `${code.slice(0, CODE_MAX - suffix.length)}${suffix}`;
          if (!taken.has(candidate.toLowerCase())) {
            taken.add(candidate.toLowerCase());
            return candidate;
          }
        }
      };
      // Depth-first from the source: parents always precede their children.
      const childrenOf = new Map<number, SysOrgRow[]>();
      for (const o of live) childrenOf.set(o.parentId, [...(childrenOf.get(o.parentId) ?? []), o]);
      const at = now();
      const nodes: { parent: number | null; org: Parameters<typeof repos.orgs.insert>[0] }[] = [];
      const visit = (row: SysOrgRow, parent: number | null, depth: number) => {
        if (depth > 64) return; // a corrupted cycle: copy what is sane
        const index = nodes.length;
        nodes.push({
          parent,
          org: {
            parentId: 0,
            name: parent === null ? (name ?? `${row.name} (copy)`.slice(0, CODE_MAX)) : row.name,
            code: freeCode(row.code),
            sort: row.sort,
            enabled: row.enabled,
            leader: row.leader,
            phone: row.phone,
            remark: row.remark,
            createTime: at,
            createUserId: actor.userId,
          },
        });
        for (const child of childrenOf.get(row.id) ?? []) visit(child, index, depth + 1);
      };
      visit(source, null, 0);
      // Free codes were chosen from one read: a copy or create racing this one answers 42031, never 500.
      const ids = await uniqueOr(
        () => repos.orgs.insertTree(source.parentId, nodes),
        () => new BusinessError(AdminErrorCode.OrgCodeExists, { code: source.code }),
      );
      return { id: ids[0] as number };
    },

    async remove(actor, id) {
      await visibleOrg(deps, actor, id);
      if (await repos.orgs.hasChildren(id)) throw fail(AdminErrorCode.OrgHasChildren);
      if ((await repos.users.countInOrg(id)) > 0) throw fail(AdminErrorCode.OrgHasUsers);
      await repos.orgs.softDelete(id, stamp(actor));
    },
  };
}
