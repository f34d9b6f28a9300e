/**
 * `sys_config`: the runtime `sys.*` settings. Reads for the config cache and "insert if absent" for the seed
 * and for consumers registering their own keys; an existing row is never overwritten here.
 */
import { asc, eq, type InferInsertModel } from 'drizzle-orm';
import type { SysConfigRow } from '../rows.js';
import type { Tables } from '../tables.js';
import type { RepositoryContext } from './context.js';

/** Values for a new config row. */
export type NewConfig = Omit<InferInsertModel<Tables['sysConfig']>, 'id'>;

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
}

export function createConfigRepository({ db, adapter, tables }: RepositoryContext): ConfigRepository {
  const t = tables.sysConfig;
  const repository: ConfigRepository = {
    async listAll() {
      return await db.select().from(t).orderBy(asc(t.configKey));
    },

    async getByKey(key) {
      const [row] = await db.select().from(t).where(eq(t.configKey, key));
      return row;
    },

    async insertIfAbsent(row) {
      return (await repository.insertManyIfAbsent([row])) > 0;
    },

    insertManyIfAbsent(rows) {
      return adapter.insertIgnoringConflicts(db, t, t.configKey, rows);
    },

    async updateValue(key, value, options) {
      const result = await db
        .update(t)
        .set({
          configValue: value,
          updateTime: options?.now ?? new Date(),
          updateUserId: options?.updateUserId ?? null,
        })
        .where(eq(t.configKey, key));
      return adapter.affectedRows(result) > 0;
    },
  };
  return repository;
}
