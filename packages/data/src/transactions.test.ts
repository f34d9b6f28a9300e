import { BusinessError, ErrorCode } from '@svc/kernel';
import { DrizzleQueryError } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.js';
import { isDatabaseBusy, isDatabaseUnavailable, isTransactionConflict, isUniqueViolation } from './errors.js';
import { type OpenTestDatabase, openTestDatabase } from './testing/test-database.js';
import { TRANSACTION_ATTEMPTS } from './transactions.js';

/** Driver errors as mysql2 and postgres.js throw them, wrapped as drizzle wraps a failed statement. */
const mysql2Error = (errno: number, code: string, sqlState: string, message: string) =>
  Object.assign(new Error(message), { errno, code, sqlState, sqlMessage: message, fatal: false });
const postgresError = (code: string, message: string) =>
  Object.assign(new Error(message), { name: 'PostgresError', code, severity: 'ERROR' });
const failed = (cause: Error) => new DrizzleQueryError('update sys_user set remark = ?', ['x'], cause);

const mariaDeadlock = () =>
  failed(
    mysql2Error(
      1213,
      'ER_LOCK_DEADLOCK',
      '40001',
      'Deadlock found when trying to get lock; try restarting transaction',
    ),
  );
const mariaLockWait = () =>
  failed(
    mysql2Error(
      1205,
      'ER_LOCK_WAIT_TIMEOUT',
      'HY000',
      'Lock wait timeout exceeded; try restarting transaction',
    ),
  );
const pgDeadlock = () => failed(postgresError('40P01', 'deadlock detected'));
const pgSerialization = () =>
  failed(postgresError('40001', 'could not serialize access due to concurrent update'));

describe('lock-conflict recognition', () => {
  it('names deadlock victims and serialization failures of every driver, wrapped or not, as conflicts', () => {
    for (const error of [mariaDeadlock(), pgDeadlock(), pgSerialization()]) {
      expect(isTransactionConflict(error)).toBe(true);
      expect(isTransactionConflict(error.cause)).toBe(true);
      expect(isDatabaseBusy(error)).toBe(true);
      // The database is up: no outage is reported for them.
      expect(isDatabaseUnavailable(error)).toBe(false);
    }
    // MariaDB's snapshot-isolation write conflict rolls back like a deadlock; SQL Server's deadlock victim.
    expect(isTransactionConflict(mysql2Error(1020, 'ER_CHECKREAD', 'HY000', 'Record has changed'))).toBe(
      true,
    );
    expect(
      isTransactionConflict(Object.assign(new Error('chosen as the deadlock victim'), { number: 1205 })),
    ).toBe(true);
  });

  it('names a lock wait that ran out busy but no conflict: it is not run again', () => {
    expect(isTransactionConflict(mariaLockWait())).toBe(false);
    expect(isDatabaseBusy(mariaLockWait())).toBe(true);
    expect(isDatabaseBusy(failed(postgresError('55P03', 'canceling statement due to lock timeout')))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(mariaLockWait())).toBe(false);
  });

  it('leaves every other failure alone', () => {
    const duplicate = failed(mysql2Error(1062, 'ER_DUP_ENTRY', '23000', 'Duplicate entry'));
    expect(isUniqueViolation(duplicate)).toBe(true);
    expect(isDatabaseBusy(duplicate)).toBe(false);
    expect(isDatabaseBusy(failed(postgresError('42P01', 'relation "x" does not exist')))).toBe(false);
    // A business error's numeric code 40001 (PasswordWrong) is no SQLSTATE.
    expect(isDatabaseBusy(new BusinessError(ErrorCode.PasswordWrong))).toBe(false);
    expect(isDatabaseBusy(new TypeError('x is undefined'))).toBe(false);
  });
});

describe('adapter.transaction re-runs a conflict victim (SQLite)', () => {
  let t: OpenTestDatabase;
  let database: Database;
  beforeAll(async () => {
    t = await openTestDatabase('Sqlite');
    database = t.database;
  });
  afterAll(() => t?.cleanup());

  const orgNames = async () =>
    (await database.db.select().from(database.tables.sysOrg)).map((o) => o.name).sort();
  const insertOrg = (tx: Database['db'], name: string) =>
    tx.insert(database.tables.sysOrg).values({ name, code: name });

  it('runs the callback again after a deadlock and commits once', async () => {
    const { adapter, db } = database;
    let runs = 0;
    const result = await adapter.transaction(db, async (tx) => {
      runs += 1;
      await insertOrg(tx, `again-${runs}`);
      if (runs === 1) throw mariaDeadlock();
      return 'done';
    });
    expect([result, runs]).toEqual(['done', 2]);
    // The victim's write was rolled back with it; the second run's committed.
    expect(await orgNames()).toContain('again-2');
    expect(await orgNames()).not.toContain('again-1');
  });

  it('gives up after the bound with the conflict itself, having committed nothing', async () => {
    const { adapter, db } = database;
    let runs = 0;
    const error = await adapter
      .transaction(db, async (tx) => {
        runs += 1;
        await insertOrg(tx, `never-${runs}`);
        throw pgDeadlock();
      })
      .catch((e: unknown) => e);
    expect(runs).toBe(TRANSACTION_ATTEMPTS);
    expect(TRANSACTION_ATTEMPTS).toBe(3);
    expect(isTransactionConflict(error)).toBe(true);
    expect((await orgNames()).filter((n) => n.startsWith('never-'))).toEqual([]);
  });

  it('runs once with retry off, and once for a lock wait timeout or any other failure', async () => {
    const { adapter, db } = database;
    for (const [error, options] of [
      [pgSerialization(), { retry: false }],
      [mariaLockWait(), undefined],
      [new Error('a bug'), undefined],
    ] as const) {
      let runs = 0;
      await expect(
        adapter.transaction(
          db,
          async () => {
            runs += 1;
            throw error;
          },
          options,
        ),
      ).rejects.toBe(error);
      expect(runs).toBe(1);
    }
  });

  it('never re-runs a nested transaction (a savepoint) on its own: the outermost runs again whole', async () => {
    const { adapter, db } = database;
    let outer = 0;
    let inner = 0;
    await adapter.transaction(db, async (tx) => {
      outer += 1;
      await insertOrg(tx, `outer-${outer}`);
      await adapter.transaction(tx, async (nested) => {
        inner += 1;
        await insertOrg(nested, `inner-${inner}`);
        if (inner === 1) throw mariaDeadlock();
      });
    });
    // Had the savepoint run again by itself, the outer callback would have run once.
    expect([outer, inner]).toEqual([2, 2]);
    const names = await orgNames();
    expect(names.filter((n) => /^(outer|inner)-/.test(n))).toEqual(['inner-2', 'outer-2']);
  });
});
