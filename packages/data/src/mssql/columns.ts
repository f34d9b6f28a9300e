/**
 * SQL Server column vocabulary: the shared column groups (id, audit, soft delete) and the typed column helpers
 * every table in `schema.ts` is built from. The other dialect folders export the same names.
 *
 * Text is NVARCHAR (Unicode), flags are BIT and timestamps `datetime2(3)`; the mssql driver reads and writes
 * `datetime2` as UTC (`useUTC`, its default), so a `Date` round-trips unchanged.
 */
import { bigint, bit, char, datetime2, int, nvarchar, smallint } from 'drizzle-orm/mssql-core';

/** Database-generated 64-bit integer key (IDENTITY). */
export const idColumn = {
  id: bigint('id', { mode: 'number' }).identity().primaryKey(),
};

/** A UTC instant, read back as a JS `Date`. */
export const instant = (name: string) => datetime2(name, { mode: 'date', precision: 3 });

/** Audit columns carried by every business table. `create_time` defaults to "now" on insert. */
export const auditColumns = {
  createTime: instant('create_time')
    .notNull()
    .$defaultFn(() => new Date()),
  createUserId: bigint('create_user_id', { mode: 'number' }),
  updateTime: instant('update_time'),
  updateUserId: bigint('update_user_id', { mode: 'number' }),
};

/** Soft-delete flag: rows are hidden from normal reads but remain queryable. */
export const softDeleteColumn = {
  isDelete: bit('is_delete').notNull().default(false),
};

/** Bounded Unicode text. */
export const str = (name: string, length: number) => nvarchar(name, { length });
/** Unbounded Unicode text. */
export const longText = (name: string) => nvarchar(name, { length: 'max' });
/** Fixed-length text, e.g. a hex digest. */
export const fixedStr = (name: string, length: number) => char(name, { length });
/** A boolean flag (BIT). */
export const flag = (name: string) => bit(name);
/** A 32-bit integer. */
export const int32 = (name: string) => int(name);
/** A small integer (enumerations such as data scope or token status). */
export const int16 = (name: string) => smallint(name);
/** A 64-bit integer read as a JS number (ids and references stay below 2^53). */
export const int64 = (name: string) => bigint(name, { mode: 'number' });
