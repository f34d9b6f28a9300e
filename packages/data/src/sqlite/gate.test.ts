/**
 * A transaction of this process on an SQLite file spans the awaits of its callback; other requests' statements
 * must not run inside it (sqlite/gate.ts). Each test holds a transaction open across a turn of the event loop that
 * the test controls, as a callback awaiting a hash, a cache or a file does, and issues statements from outside.
 */
import { tmpdir } from 'node:os';
import { eq } from 'drizzle-orm';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../database.js';
import { isDatabaseBusy, TransactionWaitTimeoutError } from '../errors.js';
import { migrateDatabase } from '../migrate.js';
import { createOpLogRepository } from '../repositories/op-logs.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';

const opened: Database[] = [];
const created: TestDatabase[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
  for (const t of created.splice(0)) await t.drop();
});

async function open(file?: TestDatabase, acquireTimeoutMs = 3_000) {
  const target = file ?? (await createTestDatabase('Sqlite'));
  if (!file) created.push(target);
  const database = await openDatabase({
    dbType: 'Sqlite',
    connectionString: target.connectionString,
    contentRoot: tmpdir(),
    acquireTimeoutMs,
  });
  opened.push(database);
  if (!file) await migrateDatabase(database);
  return { database, file: target };
}

/** A transaction that inserts an organisation, then waits for `release()` on a later turn, then fails or commits. */
function heldTransaction(database: Database, outcome: 'fail' | 'commit', name = 'inside') {
  let entered!: () => void;
  const open = new Promise<void>((resolve) => {
    entered = resolve;
  });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const done = database.adapter
    .transaction(database.db, async (tx) => {
      await tx.insert(database.tables.sysOrg).values({ name, code: name });
      entered();
      // A turn of the event loop, as a callback awaiting I/O gives other requests.
      await released;
      await new Promise((resolve) => setImmediate(resolve));
      if (outcome === 'fail') throw new Error('the transaction fails');
      return (await tx.select().from(database.tables.sysOrg)).map((o) => o.name).sort();
    })
    .then(
      (names) => ({ names }),
      (error: unknown) => ({ error }),
    );
  return { open, release, done };
}

const orgNames = async (database: Database) =>
  (await database.db.select().from(database.tables.sysOrg)).map((o) => o.name).sort();

const opLogRow = (traceId: string) => ({
  title: 'Update position',
  httpMethod: 'PUT',
  path: '/api/v1/sys/position/1',
  paramJson: null,
  resultCode: 0,
  success: true,
  elapsedMs: 1,
  operatorId: 1,
  operatorName: 'admin',
  ip: '127.0.0.1',
  userAgent: null,
  traceId,
  createTime: Date.now(),
});

describe('SQLite statements outside an open transaction', () => {
  it("wait for it, and survive its rollback (another request's write, an op-log batch, a raw statement)", async () => {
    const { database } = await open();
    const { db, adapter, tables } = database;
    const held = heldTransaction(database, 'fail');
    await held.open;

    let wrote = false;
    const write = db
      .insert(tables.sysOrg)
      .values({ name: 'other', code: 'other' })
      .then(() => {
        wrote = true;
      });
    const opLog = createOpLogRepository({ db, adapter, tables } as never);
    const batch = opLog.insertMany([opLogRow('t-1'), opLogRow('t-2')]);
    const raw = adapter.executeStatement?.(db, "update sys_config set remark = 'by a job' where id = 1");
    // A turn of the event loop later the write still waits: it did not run inside the open transaction.
    await new Promise((resolve) => setImmediate(resolve));
    expect(wrote).toBe(false);

    held.release();
    expect(await held.done).toMatchObject({
      error: expect.objectContaining({ message: 'the transaction fails' }),
    });
    await Promise.all([write, batch, raw]);
    // Rolled back: the transaction's own row. Kept: every write that waited for it.
    expect(await orgNames(database)).toEqual(['other']);
    expect(await opLog.count()).toBe(2);
  });

  it('issued in the same turn as a transaction that begins a microtask later, still run outside it', async () => {
    const { database } = await open();
    const { db, tables } = database;
    // The transaction is queued first, but BEGIN waits for its turn; the write and the read are awaited in this
    // turn, and drizzle runs a statement only a few microtasks after it is awaited.
    const held = heldTransaction(database, 'fail');
    const write = db
      .insert(tables.sysOrg)
      .values({ name: 'outer', code: 'outer' })
      .then(() => 'written');
    const read = db
      .select()
      .from(tables.sysOrg)
      .then((rows) => rows.map((o) => o.name));
    await held.open;
    held.release();
    await held.done;
    expect(await write).toBe('written');
    // The read ran after the write and before BEGIN: the committed write, none of the transaction's rows.
    expect(await read).toEqual(['outer']);
    expect(await orgNames(database)).toEqual(['outer']);
  });

  it('include updates, with and without returning (drizzle runs those without its execute)', async () => {
    const { database } = await open();
    const { db, tables } = database;
    await db.insert(tables.sysOrg).values([
      { name: 'plain', code: 'plain' },
      { name: 'returning', code: 'returning' },
    ]);
    const held = heldTransaction(database, 'fail');
    await held.open;
    const plain = db.update(tables.sysOrg).set({ remark: 'kept' }).where(eq(tables.sysOrg.code, 'plain'));
    const returning = (db as unknown as BetterSQLite3Database)
      .update(tables.sysOrg)
      .set({ remark: 'kept' })
      .where(eq(tables.sysOrg.code, 'returning'))
      .returning({ code: tables.sysOrg.code });
    let done = false;
    const both = Promise.all([plain, returning]).then((answers) => {
      done = true;
      return answers;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    held.release();
    await held.done;
    expect((await both)[1]).toEqual([{ code: 'returning' }]);
    const rows = await db.select().from(tables.sysOrg);
    expect(rows.map((o) => [o.code, o.remark]).sort()).toEqual([
      ['plain', 'kept'],
      ['returning', 'kept'],
    ]);
  });

  it('never read what the open transaction wrote before it commits or rolls back', async () => {
    const { database } = await open();
    const held = heldTransaction(database, 'fail', 'uncommitted');
    await held.open;
    const read = orgNames(database);
    held.release();
    await held.done;
    expect(await read).toEqual([]);
  });

  it("run inside it through the transaction's own handle, nested ones included", async () => {
    const { database } = await open();
    const held = heldTransaction(database, 'commit');
    await held.open;
    held.release();
    expect(await held.done).toEqual({ names: ['inside'] });
    const nested = await database.adapter.transaction(database.db, async (tx) => {
      await tx.insert(database.tables.sysOrg).values({ name: 'outer', code: 'outer' });
      return database.adapter.transaction(tx, async (inner) => {
        await inner.insert(database.tables.sysOrg).values({ name: 'nested', code: 'nested' });
        await new Promise((resolve) => setImmediate(resolve));
        return (await inner.select().from(database.tables.sysOrg)).length;
      });
    });
    expect(nested).toBe(3);
  });

  it('wait on another connection of this process to the same file instead of blocking the event loop', async () => {
    const first = await open(undefined, 500);
    const second = await open(first.file, 500);
    const held = heldTransaction(first.database, 'fail');
    await held.open;
    // Without the wait, this write would block the whole process in SQLite's busy handler for the timeout, and
    // then fail.
    let wrote = false;
    const write = second.database.db
      .insert(second.database.tables.sysOrg)
      .values({ name: 'second', code: 'b' })
      .then(() => {
        wrote = true;
      });
    await new Promise((resolve) => setImmediate(resolve));
    expect(wrote).toBe(false);
    held.release();
    await held.done;
    await write;
    expect(await orgNames(first.database)).toEqual(['second']);
  });

  it('give up after the acquire timeout with a busy error (503), and never run later: a callback using the outer handle fails, not hangs', async () => {
    const { database } = await open(undefined, 50);
    const { db, adapter, tables } = database;
    const outcome = await adapter
      .transaction(db, async (tx) => {
        await tx.insert(tables.sysOrg).values({ name: 'inside', code: 'inside' });
        // The mistake: the outer handle inside the callback waits for this very transaction.
        await db.insert(tables.sysOrg).values({ name: 'outer-handle', code: 'outer-handle' });
        return 'committed';
      })
      .catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(TransactionWaitTimeoutError);
    expect(isDatabaseBusy(outcome)).toBe(true);
    // A transaction opened through the outer handle inside another's callback waits for it likewise.
    const nested = await adapter
      .transaction(db, async () => adapter.transaction(db, async () => 'inner'))
      .catch((error: unknown) => error);
    expect(nested).toBeInstanceOf(TransactionWaitTimeoutError);
    // The abandoned statement did not run when its turn came; the rolled-back transaction left nothing.
    await db.insert(tables.sysOrg).values({ name: 'after', code: 'after' });
    expect(await orgNames(database)).toEqual(['after']);
  });
});
