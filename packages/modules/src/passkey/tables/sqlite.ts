/**
 * The passkey table on SQLite (module `Passkey`). Its siblings (`pg.ts`, `mysql.ts`, `mssql.ts`) declare the same
 * table with the same property keys and column names; only the column types differ (held equal by
 * `conformance.ts`). drizzle-kit reads this file to generate `migrations/passkey/sqlite`; it imports drizzle only.
 *
 * `credential_id` is the credential's id in base64url: unique, at most 700 characters (512 raw bytes, the most
 * the service accepts; WebAuthn allows 1023, real authenticators use 16–255), so its unique index fits the key
 * limits of MariaDB (3072 bytes in utf8mb4) and SQL Server. `public_key` is the COSE key in base64url, as
 * `@simplewebauthn/server` answered it at registration (the service never parses it). `sign_count` is the
 * authenticator's 32-bit counter: a 64-bit column, since it may exceed 2^31.
 */
import { index, integer, sqliteTable as table, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

const id = () => integer('id', { mode: 'number' }).primaryKey({ autoIncrement: true });
const int64 = (name: string) => integer(name, { mode: 'number' });
const instant = (name: string) => integer(name, { mode: 'timestamp_ms' });
const str = (name: string, length: number) => text(name, { length });
const flag = (name: string) => integer(name, { mode: 'boolean' });

export const sysUserPasskey = table(
  'sys_user_passkey',
  {
    id: id(),
    userId: int64('user_id').notNull(),
    credentialId: str('credential_id', 700).notNull(),
    publicKey: str('public_key', 2048).notNull(),
    signCount: int64('sign_count').notNull().default(0),
    /** The transports the browser reported (`internal,hybrid`), comma-separated; null when none. */
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
