/**
 * The passkey table on SQL Server: the same table as `sqlite.ts` (keys, column names, nullability) in this
 * dialect's types; `conformance.ts` holds them equal. drizzle-kit reads this file to generate
 * `migrations/passkey/mssql`. The unique key is 1400 bytes at most (nvarchar(700)), within the 1700 of a
 * nonclustered index.
 */
import {
  bigint,
  bit,
  datetime2,
  index,
  nvarchar,
  mssqlTable as table,
  uniqueIndex,
} from 'drizzle-orm/mssql-core';

const id = () => bigint('id', { mode: 'number' }).identity().primaryKey();
const int64 = (name: string) => bigint(name, { mode: 'number' });
const instant = (name: string) => datetime2(name, { mode: 'date', precision: 3 });
const str = (name: string, length: number) => nvarchar(name, { length });
const flag = (name: string) => bit(name);

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
