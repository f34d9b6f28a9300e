/**
 * MySQL/MariaDB column vocabulary: the shared column groups (id, audit, soft delete) and the typed column
 * helpers every table in `schema.ts` is built from. The other dialect folders export the same names.
 *
 * Timestamps are `datetime(3)` holding UTC wall-clock time: drizzle writes `Date#toISOString()` and reads the
 * value back with a `Z` suffix, so neither the server nor the session time zone can shift it. (MySQL's
 * `timestamp` type would be converted through the session time zone and ends in 2038.)
 */
import { bigint, boolean, char, datetime, int, mediumtext, smallint, varchar } from 'drizzle-orm/mysql-core';

/** Database-generated 64-bit integer key (AUTO_INCREMENT). */
export const idColumn = {
  id: bigint('id', { mode: 'number' }).autoincrement().primaryKey(),
};

/** A UTC instant, read back as a JS `Date`. */
export const instant = (name: string) => datetime(name, { mode: 'date', fsp: 3 });

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
  isDelete: boolean('is_delete').notNull().default(false),
};

/** Bounded text (VARCHAR, so it can be indexed). */
export const str = (name: string, length: number) => varchar(name, { length });
/** Unbounded text (MEDIUMTEXT: TEXT's 64 KiB can be too small for parameter JSON and stack traces). */
export const longText = (name: string) => mediumtext(name);
/** Fixed-length text, e.g. a hex digest. */
export const fixedStr = (name: string, length: number) => char(name, { length });
/** A boolean flag (TINYINT(1)). */
export const flag = (name: string) => boolean(name);
/** A 32-bit integer. */
export const int32 = (name: string) => int(name);
/** A small integer (enumerations such as data scope or token status). */
export const int16 = (name: string) => smallint(name);
/** A 64-bit integer read as a JS number (ids and references stay below 2^53). */
export const int64 = (name: string) => bigint(name, { mode: 'number' });
