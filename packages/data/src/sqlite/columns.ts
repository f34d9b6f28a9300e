/**
 * SQLite column vocabulary: the shared column groups (id, audit, soft delete) and the typed column helpers
 * every table in `schema.ts` is built from. The other dialect folders export the same names.
 *
 * Timestamps are INTEGER milliseconds since the Unix epoch, so they are UTC by construction.
 */
import { integer, text } from 'drizzle-orm/sqlite-core';

/** Database-generated 64-bit integer key; AUTOINCREMENT so ids are never reused after a delete. */
export const idColumn = {
  id: integer('id', { mode: 'number' }).primaryKey({ autoIncrement: true }),
};

/** A UTC instant, read back as a JS `Date`. */
export const instant = (name: string) => integer(name, { mode: 'timestamp_ms' });

/** Audit columns carried by every business table. `create_time` defaults to "now" on insert. */
export const auditColumns = {
  createTime: instant('create_time')
    .notNull()
    .$defaultFn(() => new Date()),
  createUserId: integer('create_user_id', { mode: 'number' }),
  updateTime: instant('update_time'),
  updateUserId: integer('update_user_id', { mode: 'number' }),
};

/** Soft-delete flag: rows are hidden from normal reads but remain queryable. */
export const softDeleteColumn = {
  isDelete: integer('is_delete', { mode: 'boolean' }).notNull().default(false),
};

/** Bounded text (`length` is enforced on the dialects that have VARCHAR). */
export const str = (name: string, length: number) => text(name, { length });
/** Unbounded text. */
export const longText = (name: string) => text(name);
/** Fixed-length text, e.g. a hex digest. */
export const fixedStr = (name: string, length: number) => text(name, { length });
/** A boolean flag. */
export const flag = (name: string) => integer(name, { mode: 'boolean' });
/** A 32-bit integer. */
export const int32 = (name: string) => integer(name, { mode: 'number' });
/** A small integer (enumerations such as data scope or token status). */
export const int16 = (name: string) => integer(name, { mode: 'number' });
/** A 64-bit integer read as a JS number (ids and references stay below 2^53). */
export const int64 = (name: string) => integer(name, { mode: 'number' });
