/**
 * The Excel user import's commit (`UserRepository.importBatch`): one transaction that inserts the new users many
 * rows a statement, then their role links and first password-history rows the same way, and updates the existing
 * ones. One INSERT a user cost three round trips a user on every dialect, and on PostgreSQL one version of the
 * live-user counter row a statement, which later updates in the transaction pass over: 10,000 users took ~3 s
 * over the floor, 50,000 about 35 s (docs/performance.md, "Pages and counters").
 */
import { and, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { DialectAdapter, QueryDb } from '../dialect.js';
import type { Tables } from '../tables.js';
import type { RepositoryContext } from './context.js';
import { chunksOf, insertLinks, writeInChunks } from './id-lists.js';
import type { AuditStamp, NewUser, UserPatch } from './user-types.js';

/** What one import commit writes (see `UserRepository.importBatch`). */
export interface ImportBatch {
  creates: readonly { user: NewUser; roleIds: readonly number[] }[];
  updates: readonly { id: number; patch: UserPatch; roleIds?: readonly number[] | undefined }[];
  stamp: AuditStamp;
  /**
   * Statement timeout for this transaction only (an import's own, longer one). PostgreSQL: `SET LOCAL`, which
   * ends with the transaction; MariaDB: the session's `max_statement_time`, put back before the connection
   * returns to the pool (also when the batch fails). SQLite has no statement timeout (only its busy timeout).
   */
  statementTimeoutMs?: number | undefined;
}

/**
 * New users per INSERT where the parameter limit is high: SQLite binds every column of a row that has a value or
 * a default (at most sys_user's 28 columns: 14,000 of its 32,766), PostgreSQL takes 65,534 through postgres.js
 * and mysql2 sends text. The 10,000 users of a default-sized import are 20 statements.
 */
export const IMPORT_USERS_PER_INSERT = 500;

/** Parameters SQL Server takes in one statement (2,100), less a margin for the ones a driver adds. */
const SQL_SERVER_PARAMETERS = 2_000;

/**
 * New users per INSERT on the connected dialect: {@link IMPORT_USERS_PER_INSERT}, or on SQL Server as many rows
 * as its parameters allow with every column of `sys_user` bound (71 rows of 28 columns).
 */
export function importUsersPerInsert(
  adapter: Pick<DialectAdapter, 'dbType'>,
  users: Tables['sysUser'],
): number {
  if (adapter.dbType !== 'SqlServer') return IMPORT_USERS_PER_INSERT;
  return Math.floor(SQL_SERVER_PARAMETERS / Object.keys(getTableColumns(users)).length);
}

/** Writes `batch` in one transaction; nothing is written when any statement fails. */
export function writeImportBatch(
  { db, adapter, tables }: RepositoryContext,
  batch: ImportBatch,
): Promise<{ createdIds: number[]; updated: number }> {
  const t = tables.sysUser;
  const ur = tables.sysUserRole;
  const ph = tables.sysPasswordHistory;
  const perInsert = importUsersPerInsert(adapter, t);

  return adapter.transaction(db, async (tx) => {
    const execute = (q: SQL) => (tx as unknown as { execute(q: SQL): Promise<unknown> }).execute(q);
    const timeoutMs =
      batch.statementTimeoutMs === undefined ? undefined : Math.trunc(batch.statementTimeoutMs);
    // The import's own statement timeout: PostgreSQL scopes it to the transaction; MariaDB sets it on the
    // transaction's connection and puts the pool's value back before the connection returns to the pool.
    if (timeoutMs !== undefined && adapter.dbType === 'PostgreSQL')
      await execute(sql.raw(`SET LOCAL statement_timeout = ${timeoutMs}`));
    if (timeoutMs !== undefined && adapter.dbType === 'MySql') {
      await execute(sql.raw('SET @svc_import_previous_timeout = @@SESSION.max_statement_time'));
      await execute(sql.raw(`SET SESSION max_statement_time = ${timeoutMs / 1000}`));
      try {
        return await writeBatch(tx);
      } finally {
        await execute(sql.raw('SET SESSION max_statement_time = @svc_import_previous_timeout'));
      }
    }
    return writeBatch(tx);
  });

  /** Inserts one chunk of new users and answers their ids in the chunk's order. */
  async function insertUsers(tx: QueryDb, chunk: readonly NewUser[]): Promise<number[]> {
    const accounts = chunk.map((user) => user.account);
    // MySQL reads the rows back by this (the others answer RETURNING / OUTPUT): `account_live` is lower(account)
    // while the row is live, under a unique index, so one live row at most holds each of these values, and it is
    // the one just inserted: a live row with that value committed before would have failed the insert, one
    // written since (an insert, a restore) waits on this transaction's lock of the index entry and then fails.
    // The read locks, so it sees the latest committed rows, not a snapshot in which a since-deleted user is live.
    const readBack = sql`${t.accountLive} in (${sql.join(
      accounts.map((account) => sql`lower(${account})`),
      sql`, `,
    )})`;
    const rows = await adapter.insertReturning(tx, t, [...chunk], { id: t.id, account: t.account }, readBack);
    // No dialect promises the rows come back in VALUES order: they are matched by account, which the live-account
    // index makes distinct within the chunk (two alike would have failed the insert).
    const ids = new Map(rows.map((row) => [row.account, Number(row.id)]));
    return accounts.map((account) => {
      const id = ids.get(account);
      if (id === undefined)
        throw new Error(`importBatch: no id came back for a new user (${ids.size} of ${accounts.length})`);
      return id;
    });
  }

  async function writeBatch(tx: QueryDb) {
    const createdIds: number[] = [];
    for (const chunk of chunksOf(batch.creates, perInsert)) {
      const ids = await insertUsers(
        tx,
        chunk.map((create) => create.user),
      );
      for (const id of ids) createdIds.push(id);
    }
    await insertLinks(
      tx,
      ur,
      batch.creates.flatMap(({ roleIds }, i) => {
        const userId = createdIds[i] as number;
        return [...new Set(roleIds)].map((roleId) => ({ userId, roleId }));
      }),
    );
    const history = batch.creates.map(({ user }, i) => ({
      userId: createdIds[i] as number,
      passwordHash: user.password,
      createTime: batch.stamp.at,
    }));
    for (const chunk of chunksOf(history)) await tx.insert(ph).values(chunk);

    // Updates touch one row each; their role links are replaced afterwards, in chunks (a user listed twice
    // keeps the roles of its last update, as when each update replaced them in turn).
    let updated = 0;
    const relinked = new Map<number, readonly number[]>();
    for (const { id, patch, roleIds } of batch.updates) {
      const result = await tx
        .update(t)
        .set({ ...patch, updateTime: batch.stamp.at, updateUserId: batch.stamp.userId })
        .where(and(eq(t.id, id), eq(t.isDelete, false)));
      if (adapter.affectedRows(result) === 0) continue;
      updated += 1;
      if (roleIds) relinked.set(id, roleIds);
    }
    await writeInChunks(tx, adapter, [...relinked.keys()], (q, chunk) =>
      q.delete(ur).where(inArray(ur.userId, chunk)),
    );
    await insertLinks(
      tx,
      ur,
      [...relinked].flatMap(([userId, roleIds]) =>
        [...new Set(roleIds)].map((roleId) => ({ userId, roleId })),
      ),
    );
    return { createdIds, updated };
  }
}
