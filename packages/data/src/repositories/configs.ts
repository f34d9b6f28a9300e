/**
 * `sys_config`: the runtime `sys.*` settings and any consumer keys. Reads for the config cache, "insert if
 * absent" for the seed and for consumers registering their own keys, and the config centre's page, detail and
 * writes (the key of a row never changes after insert; batch updates run in one transaction). A deleted row
 * stays as a soft-deleted row for the recycle bin; every read and write here sees live rows only, and the key
 * is unique among live rows (the generated `config_key_live` column, contract §10).
 */
import { and, asc, eq, type InferInsertModel } from 'drizzle-orm';
import { type Page, type PageQuery, paginate } from '../paging.js';
import type { SysConfigRow } from '../rows.js';
import type { Tables } from '../tables.js';
import type { RepositoryContext } from './context.js';
import { containsIgnoreCase } from './filters.js';

/** Values for a new config row. */
export type NewConfig = Omit<InferInsertModel<Tables['sysConfig']>, 'id'>;

/** Filters of the config page on top of the paging query. */
export interface ConfigPageQuery extends PageQuery {
  /** Key contains (case-insensitive). */
  key?: string | undefined;
  /** Name contains (case-insensitive). */
  name?: string | undefined;
}

/** Changeable fields of a row; the key is not among them. */
export type ConfigPatch = Partial<Pick<SysConfigRow, 'configValue' | 'valueType' | 'name' | 'remark'>>;

/** Who changed a row, and when. */
export interface ConfigAudit {
  updateUserId?: number | null;
  /** @default now */
  now?: Date;
}

export interface ConfigRepository {
  /** Every row, ordered by key. */
  listAll(): Promise<SysConfigRow[]>;
  getByKey(key: string): Promise<SysConfigRow | undefined>;
  /** Inserts the row unless its key exists; true when it was inserted. */
  insertIfAbsent(row: NewConfig): Promise<boolean>;
  /** Inserts the rows whose keys do not exist yet; returns how many were inserted. */
  insertManyIfAbsent(rows: NewConfig[]): Promise<number>;
  /** Sets the value of an existing key; false when no row has that key. */
  updateValue(
    key: string,
    value: string,
    options?: { updateUserId?: number | null; now?: Date },
  ): Promise<boolean>;
  /** Ordered by key unless the query sorts by another column. */
  page(query: ConfigPageQuery): Promise<Page<SysConfigRow>>;
  getById(id: number): Promise<SysConfigRow | undefined>;
  /** Inserts a row and returns its id (the caller checks the key is free; the unique index guards races). */
  create(row: NewConfig): Promise<number>;
  /** Changes the given fields of row `id`; false when there is no such row. */
  update(id: number, patch: ConfigPatch, audit?: ConfigAudit): Promise<boolean>;
  /** Sets the values of existing keys in one transaction; returns how many rows changed. */
  updateValues(entries: readonly { key: string; value: string }[], audit?: ConfigAudit): Promise<number>;
  /** Soft-deletes live row `id` (it goes to the recycle bin); false when there is no such live row. */
  deleteById(id: number, audit?: ConfigAudit): Promise<boolean>;
}

export function createConfigRepository({ db, adapter, tables }: RepositoryContext): ConfigRepository {
  const t = tables.sysConfig;
  const live = eq(t.isDelete, false);
  const repository: ConfigRepository = {
    async listAll() {
      return await db.select().from(t).where(live).orderBy(asc(t.configKey));
    },

    async getByKey(key) {
      const [row] = await db
        .select()
        .from(t)
        .where(and(eq(t.configKey, key), live));
      return row;
    },

    async insertIfAbsent(row) {
      return (await repository.insertManyIfAbsent([row])) > 0;
    },

    insertManyIfAbsent(rows) {
      return adapter.insertIgnoringConflicts(db, t, t.configKeyLive, rows);
    },

    async updateValue(key, value, options) {
      const result = await db
        .update(t)
        .set({
          configValue: value,
          updateTime: options?.now ?? new Date(),
          updateUserId: options?.updateUserId ?? null,
        })
        .where(and(eq(t.configKey, key), live));
      return adapter.affectedRows(result) > 0;
    },

    page(query) {
      const where = and(
        live,
        containsIgnoreCase(t.configKey, query.key),
        containsIgnoreCase(t.name, query.name),
      );
      return paginate({ db, adapter }, { table: t, query, where, defaultOrder: [asc(t.configKey)] });
    },

    async getById(id) {
      const [row] = await db
        .select()
        .from(t)
        .where(and(eq(t.id, id), live));
      return row;
    },

    create(row) {
      return adapter.insertReturningId(db, t, row);
    },

    async update(id, patch, audit) {
      const result = await db
        .update(t)
        .set({ ...patch, updateTime: audit?.now ?? new Date(), updateUserId: audit?.updateUserId ?? null })
        .where(and(eq(t.id, id), live));
      return adapter.affectedRows(result) > 0;
    },

    updateValues(entries, audit) {
      return adapter.transaction(db, async (tx) => {
        let changed = 0;
        for (const { key, value } of entries) {
          const result = await tx
            .update(t)
            .set({
              configValue: value,
              updateTime: audit?.now ?? new Date(),
              updateUserId: audit?.updateUserId ?? null,
            })
            .where(and(eq(t.configKey, key), live));
          changed += adapter.affectedRows(result);
        }
        return changed;
      });
    },

    async deleteById(id, audit) {
      const result = await db
        .update(t)
        .set({
          isDelete: true,
          updateTime: audit?.now ?? new Date(),
          updateUserId: audit?.updateUserId ?? null,
        })
        .where(and(eq(t.id, id), live));
      return adapter.affectedRows(result) > 0;
    },
  };
  return repository;
}
