/**
 * The stored passkeys (`sys_user_passkey`, the module's own table): looked up by credential id at login, listed,
 * renamed and removed per user. Every read or write of one passkey names its owner too, so another user's id
 * finds nothing (and answers as a missing one).
 */
import type { Database } from '@svc/data';
import { and, asc, eq } from 'drizzle-orm';
import type { PasskeyRow, PasskeyTables } from './tables/index.js';

export interface NewPasskey {
  userId: number;
  credentialId: string;
  publicKey: string;
  signCount: number;
  transports: string | null;
  aaguid: string | null;
  name: string;
  backedUp: boolean;
  createTime: Date;
}

export interface PasskeyStore {
  insert(row: NewPasskey): Promise<number>;
  byCredentialId(credentialId: string): Promise<PasskeyRow | undefined>;
  /** The passkey `id` of `userId`, undefined for a missing one or one of another user. */
  ofUser(userId: number, id: number): Promise<PasskeyRow | undefined>;
  listOfUser(userId: number): Promise<PasskeyRow[]>;
  rename(userId: number, id: number, name: string): Promise<boolean>;
  /**
   * Records a verified use: the new counter, backup state and time, only while the row still holds the counter
   * the check read (`expected`), so of two assertions racing with one counter one moves it.
   */
  recordUse(
    id: number,
    expected: number,
    use: { signCount: number; backedUp: boolean; at: Date },
  ): Promise<boolean>;
  remove(userId: number, id: number): Promise<boolean>;
  /** Removes every passkey of the user; answers how many. */
  removeAllOfUser(userId: number): Promise<number>;
  /** Reads one row id: rejects while the table cannot be read (the module's readiness check). */
  probe(): Promise<void>;
}

export function createPasskeyStore(deps: {
  database: Pick<Database, 'db' | 'adapter'>;
  tables: PasskeyTables;
}): PasskeyStore {
  const { db, adapter } = deps.database;
  const t = deps.tables.sysUserPasskey;
  const mine = (userId: number, id: number) => and(eq(t.id, id), eq(t.userId, userId));

  return {
    insert: (row) => adapter.insertReturningId(db, t, row),
    async byCredentialId(credentialId) {
      const [row] = await db.select().from(t).where(eq(t.credentialId, credentialId));
      return row;
    },
    async ofUser(userId, id) {
      const [row] = await db.select().from(t).where(mine(userId, id));
      return row;
    },
    async listOfUser(userId) {
      return db.select().from(t).where(eq(t.userId, userId)).orderBy(asc(t.id));
    },
    async rename(userId, id, name) {
      return adapter.affectedRows(await db.update(t).set({ name }).where(mine(userId, id))) > 0;
    },
    async recordUse(id, expected, use) {
      const result = await db
        .update(t)
        .set({ signCount: use.signCount, backedUp: use.backedUp, lastUsedTime: use.at })
        .where(and(eq(t.id, id), eq(t.signCount, expected)));
      return adapter.affectedRows(result) > 0;
    },
    async remove(userId, id) {
      return adapter.affectedRows(await db.delete(t).where(mine(userId, id))) > 0;
    },
    async removeAllOfUser(userId) {
      return adapter.affectedRows(await db.delete(t).where(eq(t.userId, userId)));
    },
    async probe() {
      await adapter.page(db.select({ id: t.id }).from(t), 0, 1);
    },
  };
}
