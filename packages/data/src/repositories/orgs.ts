/**
 * `sys_org`: the organisation tree. The whole live tree is small (hundreds of rows), so descendants and cycle
 * checks are computed in code from one read of `(id, parentId)`.
 */
import { and, asc, count, eq, type InferInsertModel, inArray, ne, type SQL } from 'drizzle-orm';
import type { SysOrgRow } from '../rows.js';
import type { Tables } from '../tables.js';
import type { RepositoryContext } from './context.js';
import { containsIgnoreCase } from './filters.js';
import { readInChunks } from './id-lists.js';
import { hasLiveChildren, softDeleteLiveRow, updateLiveRow } from './live-rows.js';
import type { AuditStamp } from './users.js';

/** Values for a new organisation. */
export type NewOrg = Omit<InferInsertModel<Tables['sysOrg']>, 'id'>;

/** Organisation fields an administrator may change; `liveExempt` is cleared when the code changes, so the row's code
 * joins the unique index (see the schema's `liveExempt`). */
export type OrgPatch = Partial<
  Pick<
    SysOrgRow,
    'parentId' | 'name' | 'code' | 'sort' | 'enabled' | 'leader' | 'liveExempt' | 'phone' | 'remark'
  >
>;

/** Filters of the organisation list. */
export interface OrgListQuery {
  name?: string | undefined;
  enabled?: boolean | undefined;
}

/** One edge of the tree. */
export interface OrgLink {
  id: number;
  parentId: number;
}

export interface OrgRepository {
  /** Live organisations matching the filters, by sort then id. */
  list(query?: OrgListQuery): Promise<SysOrgRow[]>;
  findById(id: number): Promise<SysOrgRow | undefined>;
  /** Ids among `ids` that name live organisations. */
  existingIds(ids: readonly number[]): Promise<number[]>;
  /** `(id, parentId)` of every live organisation. */
  links(): Promise<OrgLink[]>;
  insert(org: NewOrg): Promise<number>;
  /**
   * Inserts a tree in one transaction, parents first: each node's `parent` is the index of an earlier node,
   * or null for the root, which gets `rootParentId`. Answers the new ids in input order.
   */
  insertTree(
    rootParentId: number,
    nodes: readonly { parent: number | null; org: Omit<NewOrg, 'parentId'> }[],
  ): Promise<number[]>;
  /** True when a live organisation other than `exceptId` holds `code`, compared ignoring case (contract §11). */
  codeTaken(code: string, exceptId?: number): Promise<boolean>;
  update(id: number, patch: OrgPatch, stamp: AuditStamp): Promise<boolean>;
  softDelete(id: number, stamp: AuditStamp): Promise<boolean>;
  hasChildren(id: number): Promise<boolean>;
}

export function createOrgRepository(ctx: RepositoryContext): OrgRepository {
  const { db, adapter, tables } = ctx;
  const t = tables.sysOrg;

  return {
    async list(query = {}) {
      const where: (SQL | undefined)[] = [
        eq(t.isDelete, false),
        containsIgnoreCase(t.name, query.name),
        query.enabled !== undefined ? eq(t.enabled, query.enabled) : undefined,
      ];
      return await db
        .select()
        .from(t)
        .where(and(...where))
        .orderBy(asc(t.sort), asc(t.id));
    },

    async findById(id) {
      const [row] = await db
        .select()
        .from(t)
        .where(and(eq(t.id, id), eq(t.isDelete, false)));
      return row;
    },

    async existingIds(ids) {
      const rows = await readInChunks(ids, (chunk) =>
        db
          .select({ id: t.id })
          .from(t)
          .where(and(inArray(t.id, chunk), eq(t.isDelete, false))),
      );
      return rows.map((r) => r.id);
    },

    async links() {
      return await db.select({ id: t.id, parentId: t.parentId }).from(t).where(eq(t.isDelete, false));
    },

    insert(org) {
      return adapter.insertReturningId(db, t, org);
    },

    insertTree(rootParentId, nodes) {
      return adapter.transaction(db, async (tx) => {
        const ids: number[] = [];
        for (const node of nodes) {
          const parentId = node.parent === null ? rootParentId : ids[node.parent];
          if (parentId === undefined) throw new Error('insertTree: a parent must come before its children');
          ids.push(await adapter.insertReturningId(tx, t, { ...node.org, parentId }));
        }
        return ids;
      });
    },

    async codeTaken(code, exceptId) {
      const [row] = await db
        .select({ n: count() })
        .from(t)
        .where(
          and(
            adapter.equalsIgnoreCase(t.code, code.trim()),
            eq(t.isDelete, false),
            exceptId !== undefined ? ne(t.id, exceptId) : undefined,
          ),
        );
      return Number(row?.n ?? 0) > 0;
    },

    update(id, patch, stamp) {
      return updateLiveRow(ctx, t, id, patch, stamp);
    },

    softDelete(id, stamp) {
      return softDeleteLiveRow(ctx, t, id, stamp);
    },

    hasChildren(id) {
      return hasLiveChildren(ctx, t, id);
    },
  };
}

/** Ids of `rootIds` and all their descendants in `links` (cycle-safe). */
export function descendantOrgIds(links: readonly OrgLink[], rootIds: readonly number[]): number[] {
  const children = new Map<number, number[]>();
  for (const link of links) children.set(link.parentId, [...(children.get(link.parentId) ?? []), link.id]);
  const seen = new Set<number>();
  const stack = [...rootIds];
  while (stack.length > 0) {
    const id = stack.pop() as number;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return [...seen];
}
