/**
 * `sys_dict_type` and `sys_dict_item`: dictionaries (contract §5). Types and items are soft-deleted; deleting a
 * type deletes its items in the same transaction. A type's code is its identity for readers
 * (`GET /sys/dict/items/{typeCode}`), so it never changes after insert and items carry it beside the type id.
 */
import { and, asc, count, eq, type InferInsertModel, inArray, ne } from 'drizzle-orm';
import { type Page, type PageQuery, paginate } from '../paging.js';
import type { SysDictItemRow, SysDictTypeRow } from '../rows.js';
import type { Tables } from '../tables.js';
import type { RepositoryContext } from './context.js';
import { containsIgnoreCase } from './filters.js';
import { readInChunks, writeAllInChunks, writeInChunks } from './id-lists.js';

export type NewDictType = Omit<InferInsertModel<Tables['sysDictType']>, 'id'>;
export type NewDictItem = Omit<InferInsertModel<Tables['sysDictItem']>, 'id'>;

/** Changeable fields of a type (not its code). */
export type DictTypePatch = Partial<Pick<SysDictTypeRow, 'name' | 'enabled' | 'remark'>>;

/** Changeable fields of an item (not its type); `liveExempt` is cleared when the value changes, so the row's value
 * joins the unique index (see the schema's `liveExempt`). */
export type DictItemPatch = Partial<
  Pick<SysDictItemRow, 'label' | 'value' | 'sort' | 'enabled' | 'remark' | 'liveExempt'>
>;

export interface DictTypePageQuery extends PageQuery {
  code?: string | undefined;
  name?: string | undefined;
}

export interface DictItemPageQuery extends PageQuery {
  typeCode?: string | undefined;
  label?: string | undefined;
}

/** Who changed a row, and when. */
export interface DictAudit {
  userId?: number | null;
  /** @default now */
  now?: Date;
}

export interface DictRepository {
  pageTypes(query: DictTypePageQuery): Promise<Page<SysDictTypeRow>>;
  getType(id: number): Promise<SysDictTypeRow | undefined>;
  getTypeByCode(code: string): Promise<SysDictTypeRow | undefined>;
  createType(row: NewDictType): Promise<number>;
  updateType(id: number, patch: DictTypePatch, audit?: DictAudit): Promise<boolean>;
  /** Soft-deletes the type and its items; false when there is no such live type. */
  deleteType(id: number, audit?: DictAudit): Promise<boolean>;
  /** Soft-deletes the live types among `ids` and their items in one transaction; answers the types deleted. */
  deleteTypes(ids: readonly number[], audit?: DictAudit): Promise<number>;
  /** Live types among `ids`. */
  getTypes(ids: readonly number[]): Promise<SysDictTypeRow[]>;
  /** Live items among `ids`. */
  getItems(ids: readonly number[]): Promise<SysDictItemRow[]>;
  /** Soft-deletes the live items among `ids`; answers how many. */
  deleteItems(ids: readonly number[], audit?: DictAudit): Promise<number>;
  /** Items of live types, ordered by type code, sort, id unless sorted otherwise. */
  pageItems(query: DictItemPageQuery): Promise<Page<SysDictItemRow>>;
  getItem(id: number): Promise<SysDictItemRow | undefined>;
  createItem(row: NewDictItem): Promise<number>;
  /** True when a live item of type `typeId` other than `exceptId` holds `value` (compared as the column's collation does). */
  itemValueTaken(typeId: number, value: string, exceptId?: number): Promise<boolean>;
  updateItem(id: number, patch: DictItemPatch, audit?: DictAudit): Promise<boolean>;
  deleteItem(id: number, audit?: DictAudit): Promise<boolean>;
  /** Enabled items of an enabled type, by sort then id; empty when the type is unknown or disabled. */
  enabledItems(typeCode: string): Promise<SysDictItemRow[]>;
}

export function createDictRepository({ db, adapter, tables }: RepositoryContext): DictRepository {
  const ty = tables.sysDictType;
  const it = tables.sysDictItem;
  const stamp = (audit?: DictAudit) => ({
    updateTime: audit?.now ?? new Date(),
    updateUserId: audit?.userId ?? null,
  });

  return {
    pageTypes(query) {
      const where = and(
        eq(ty.isDelete, false),
        containsIgnoreCase(ty.code, query.code),
        containsIgnoreCase(ty.name, query.name),
      );
      return paginate({ db, adapter }, { table: ty, query, where, defaultOrder: [asc(ty.code), asc(ty.id)] });
    },

    async getType(id) {
      const [row] = await db
        .select()
        .from(ty)
        .where(and(eq(ty.id, id), eq(ty.isDelete, false)));
      return row;
    },

    async getTypeByCode(code) {
      const [row] = await db
        .select()
        .from(ty)
        .where(and(eq(ty.code, code), eq(ty.isDelete, false)));
      return row;
    },

    createType(row) {
      return adapter.insertReturningId(db, ty, row);
    },

    async updateType(id, patch, audit) {
      const result = await db
        .update(ty)
        .set({ ...patch, ...stamp(audit) })
        .where(and(eq(ty.id, id), eq(ty.isDelete, false)));
      return adapter.affectedRows(result) > 0;
    },

    deleteType(id, audit) {
      return adapter.transaction(db, async (tx) => {
        const result = await tx
          .update(ty)
          .set({ isDelete: true, ...stamp(audit) })
          .where(and(eq(ty.id, id), eq(ty.isDelete, false)));
        if (adapter.affectedRows(result) === 0) return false;
        await tx
          .update(it)
          .set({ isDelete: true, ...stamp(audit) })
          .where(and(eq(it.typeId, id), eq(it.isDelete, false)));
        return true;
      });
    },

    deleteTypes(ids, audit) {
      if (ids.length === 0) return Promise.resolve(0);
      return adapter.transaction(db, async (tx) => {
        const deleted = await writeInChunks(tx, adapter, ids, (q, chunk) =>
          q
            .update(ty)
            .set({ isDelete: true, ...stamp(audit) })
            .where(and(inArray(ty.id, chunk), eq(ty.isDelete, false))),
        );
        await writeInChunks(tx, adapter, ids, (q, chunk) =>
          q
            .update(it)
            .set({ isDelete: true, ...stamp(audit) })
            .where(and(inArray(it.typeId, chunk), eq(it.isDelete, false))),
        );
        return deleted;
      });
    },

    getTypes(ids) {
      return readInChunks(ids, (chunk) =>
        db
          .select()
          .from(ty)
          .where(and(inArray(ty.id, chunk), eq(ty.isDelete, false))),
      );
    },

    getItems(ids) {
      return readInChunks(ids, (chunk) =>
        db
          .select()
          .from(it)
          .where(and(inArray(it.id, chunk), eq(it.isDelete, false))),
      );
    },

    deleteItems(ids, audit) {
      return writeAllInChunks({ db, adapter }, ids, (q, chunk) =>
        q
          .update(it)
          .set({ isDelete: true, ...stamp(audit) })
          .where(and(inArray(it.id, chunk), eq(it.isDelete, false))),
      );
    },

    pageItems(query) {
      const code = query.typeCode?.trim();
      const where = and(
        eq(it.isDelete, false),
        code ? eq(it.typeCode, code) : undefined,
        containsIgnoreCase(it.label, query.label),
      );
      return paginate(
        { db, adapter },
        { table: it, query, where, defaultOrder: [asc(it.typeCode), asc(it.sort), asc(it.id)] },
      );
    },

    async getItem(id) {
      const [row] = await db
        .select()
        .from(it)
        .where(and(eq(it.id, id), eq(it.isDelete, false)));
      return row;
    },

    createItem(row) {
      return adapter.insertReturningId(db, it, row);
    },

    async itemValueTaken(typeId, value, exceptId) {
      const [row] = await db
        .select({ n: count() })
        .from(it)
        .where(
          and(
            eq(it.typeId, typeId),
            eq(it.value, value),
            eq(it.isDelete, false),
            exceptId !== undefined ? ne(it.id, exceptId) : undefined,
          ),
        );
      return Number(row?.n ?? 0) > 0;
    },

    async updateItem(id, patch, audit) {
      const result = await db
        .update(it)
        .set({ ...patch, ...stamp(audit) })
        .where(and(eq(it.id, id), eq(it.isDelete, false)));
      return adapter.affectedRows(result) > 0;
    },

    async deleteItem(id, audit) {
      const result = await db
        .update(it)
        .set({ isDelete: true, ...stamp(audit) })
        .where(and(eq(it.id, id), eq(it.isDelete, false)));
      return adapter.affectedRows(result) > 0;
    },

    async enabledItems(typeCode) {
      const [type] = await db
        .select({ id: ty.id })
        .from(ty)
        .where(and(eq(ty.code, typeCode), eq(ty.isDelete, false), eq(ty.enabled, true)));
      if (!type) return [];
      return await db
        .select()
        .from(it)
        .where(and(eq(it.typeId, type.id), eq(it.isDelete, false), eq(it.enabled, true)))
        .orderBy(asc(it.sort), asc(it.id));
    },
  };
}
