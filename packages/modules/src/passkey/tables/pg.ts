/**
 * The passkey table on PostgreSQL: the same table as `sqlite.ts` (keys, column names, nullability) in this
 * dialect's types; `conformance.ts` holds them equal. drizzle-kit reads this file to generate
 * `migrations/passkey/pg`.
 */
import {
  bigint,
  boolean,
  index,
  pgTable as table,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';

const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity();
const int64 = (name: string) => bigint(name, { mode: 'number' });
const instant = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });
const str = (name: string, length: number) => varchar(name, { length });
const flag = (name: string) => boolean(name);

export const sysUserPasskey = table(
  'sys_user_passkey',
  {
    id: id(),
    userId: int64('user_id').notNull(),
    credentialId: str('credential_id', 700).notNull(),
    publicKey: str('public_key', 2048).notNull(),
    signCount: int64('sign_count').notNull().default(0),
    transports: str('transports', 255),
    aaguid: str('aaguid', 36),
    name: str('name', 64).notNull(),
    backedUp: flag('backed_up').notNull().default(false),
    createTime: instant('create_time').notNull(),
    lastUsedTime: instant('last_used_time'),
  },
  (t) => [
    uniqueIndex('sys_user_passkey_credential_uq').on(t.credentialId),
    index('sys_user_passkey_user_idx').on(t.userId, t.id),
  ],
);
