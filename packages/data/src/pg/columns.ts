/**
 * PostgreSQL column vocabulary: the shared column groups (id, audit, soft delete) and the typed column helpers
 * every table in `schema.ts` is built from. The other dialect folders export the same names.
 *
 * Timestamps are `timestamp(3) with time zone`: PostgreSQL stores an absolute instant, so a `Date` round-trips
 * whatever the session or server time zone is.
 */
import { bigint, boolean, char, integer, smallint, text, timestamp, varchar } from 'drizzle-orm/pg-core';

/** Database-generated 64-bit integer key. BY DEFAULT (not ALWAYS) so the seed can place menus at fixed ids. */
export const idColumn = {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
};

/** A UTC instant, read back as a JS `Date`. */
export const instant = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });

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

/** Bounded text. */
export const str = (name: string, length: number) => varchar(name, { length });
/** Unbounded text. */
export const longText = (name: string) => text(name);
/** Fixed-length text, e.g. a hex digest. */
export const fixedStr = (name: string, length: number) => char(name, { length });
/** A boolean flag. */
export const flag = (name: string) => boolean(name);
/** A 32-bit integer. */
export const int32 = (name: string) => integer(name);
/** A small integer (enumerations such as data scope or token status). */
export const int16 = (name: string) => smallint(name);
/** A 64-bit integer read as a JS number (ids and references stay below 2^53). */
export const int64 = (name: string) => bigint(name, { mode: 'number' });
