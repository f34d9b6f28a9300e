/**
 * The recycle bin's reads and writes for any soft-deletable table, keyed by table name: page the deleted rows,
 * find one, restore it, purge it. Written once so that a new soft-deletable table (jobs, notices, a consumer's
 * own) joins the bin with a registry entry and no repository code. Restoring a row whose unique key a live row
 * now holds fails with the database's unique violation (the generated live-key columns, contract §10).
 */
import { and, type Column, desc, eq, type InferSelectModel, inArray, type SQL, sql } from 'drizzle-orm';
import { type Page, type PageQuery, paginate } from '../paging.js';
import type { TableKey, Tables } from '../tables.js';
import type { RepositoryContext } from './context.js';
import { type DataScopeFilter, dataScopeCondition } from './data-scope.js';
import type { AuditedTable } from './live-rows.js';
import type { AuditStamp } from './users.js';

/** Tables with the soft-delete flag and audit columns (derived, so new tables qualify by their columns). */
export type SoftDeleteKey = {
  [K in TableKey]: Tables[K] extends AuditedTable ? K : never;
}[TableKey];

/** The soft-deletable tables the generic purge may delete from (users go through `repos.users.purge`). */
export type TrashPurgeKey = Exclude<SoftDeleteKey, 'sysUser'>;

/** A row of a soft-deletable table. */
export type TrashRow<K extends SoftDeleteKey> = InferSelectModel<Tables[K]>;

export interface TrashRepository {
  /**
   * Soft-deleted rows of `key`, most recently deleted first. With `creatorScope`, only rows created by a user
   * inside it (the files rule of contract §10, usable by any audited table).
   */
  page<K extends SoftDeleteKey>(
    key: K,
    query: PageQuery,
    creatorScope?: DataScopeFilter,
  ): Promise<Page<TrashRow<K>>>;
  /** The soft-deleted row `id` of `key` (within `creatorScope`), undefined when it is live or missing. */
  findDeleted<K extends SoftDeleteKey>(
    key: K,
    id: number,
    creatorScope?: DataScopeFilter,
  ): Promise<TrashRow<K> | undefined>;
  /** Which of `ids` are soft-deleted rows of `key` (one read, whatever their number). */
  deletedIds(key: SoftDeleteKey, ids: readonly number[]): Promise<number[]>;
  /**
   * Makes a soft-deleted row live again, setting `values` in the same statement (a job comes back paused, never
   * live and scheduled for an instant); false when it was not in the bin.
   */
  restore(
    key: SoftDeleteKey,
    id: number,
    stamp: AuditStamp,
    values?: Record<string, unknown>,
  ): Promise<boolean>;
  /**
   * Hard-deletes a soft-deleted row; false when it was not in the bin. Users are purged only through
   * `repos.users.purge`, which the composition root decorates so the modules remove what they keep of the user
   * (passkeys, a consumer's per-user rows): `sysUser` is refused here, in the type and at run time.
   */
  purge(key: TrashPurgeKey, id: number): Promise<boolean>;
}

export function createTrashRepository(ctx: RepositoryContext): TrashRepository {
  const { db, adapter, tables } = ctx;
  const tableOf = (key: SoftDeleteKey) => tables[key] as AuditedTable & { createUserId: Column };
  const u = tables.sysUser;
  /** Created by a user inside the scope (deleted creators included: their organisation still holds). */
  function createdWithin(t: { createUserId: Column }, scope: DataScopeFilter | undefined): SQL | undefined {
    if (!scope || scope.all) return undefined;
    const users = dataScopeCondition(scope, { org: u.orgId, owner: u.id });
    return sql`${t.createUserId} in (select ${u.id} from ${u} where ${users})`;
  }
  return {
    page(key, query, creatorScope) {
      const t = tableOf(key);
      return paginate(
        { db, adapter },
        {
          table: t,
          where: and(eq(t.isDelete, true), createdWithin(t, creatorScope)),
          query: { ...query, sortField: undefined },
          defaultOrder: [desc(t.updateTime), desc(t.id)],
        },
      ) as never;
    },

    async findDeleted(key, id, creatorScope) {
      const t = tableOf(key);
      const [row] = await db
        .select()
        .from(t)
        .where(and(eq(t.id, id), eq(t.isDelete, true), createdWithin(t, creatorScope)));
      return row as never;
    },

    async deletedIds(key, ids) {
      if (ids.length === 0) return [];
      const t = tableOf(key);
      const rows = await db
        .select({ id: t.id })
        .from(t)
        .where(and(inArray(t.id, [...ids]), eq(t.isDelete, true)));
      return rows.map((r) => r.id as number);
    },

    async restore(key, id, stamp, extra) {
      const t = tableOf(key);
      const values = { ...extra, isDelete: false, updateTime: stamp.at, updateUserId: stamp.userId };
      const result = await db
        .update(t)
        .set(values as never)
        .where(and(eq(t.id, id), eq(t.isDelete, true)));
      return adapter.affectedRows(result) > 0;
    },

    async purge(key, id) {
      // A cast or a plain-JavaScript caller gets past the type: the modules' purge hooks must not be skipped.
      if ((key as SoftDeleteKey) === 'sysUser')
        throw new Error('Users are purged through repos.users.purge.');
      const t = tableOf(key);
      const result = await db.delete(t).where(and(eq(t.id, id), eq(t.isDelete, true)));
      return adapter.affectedRows(result) > 0;
    },
  };
}
