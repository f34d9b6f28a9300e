/**
 * The SQLite connection's kept statements (statements.ts): a query compiled once is reused, drizzle's array rows
 * on one use of a statement never leak into another use that expects objects, the cache stays bounded, a
 * statement someone is iterating is not handed out again, and a schema change reaches a kept statement. The
 * op-log append splits odd batch sizes into the few sizes it keeps compiled.
 */
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryInstrumentation } from '../query-observer.js';
import { appendSize, sqliteAdapter } from './adapter.js';
import { gateStatements, registerGate } from './gate.js';
import { keepStatements, useKeptStatements } from './statements.js';

const open: BetterSqlite3.Database[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

function client(): BetterSqlite3.Database {
  const c = new BetterSqlite3(':memory:');
  open.push(c);
  c.exec(
    "create table t (id integer primary key, name text not null); insert into t (name) values ('a'), ('b')",
  );
  return c;
}

describe('kept statements', () => {
  it('compiles a query once however often drizzle runs it; the connection itself keeps its own prepare', () => {
    const c = client();
    const compile = vi.spyOn(c, 'prepare');
    const db = drizzle({ client: c });
    useKeptStatements(db, c);
    const t = sqliteTable('t', { id: integer('id').primaryKey(), name: text('name').notNull() });
    for (let i = 0; i < 5; i++) expect(db.select().from(t).where(sql`${t.id} = ${1}`).all()).toHaveLength(1);
    for (let i = 0; i < 5; i++)
      db.update(t)
        .set({ name: `n${i}` })
        .where(sql`${t.id} = ${2}`)
        .run();
    // Two query shapes, two compilations (the spy sees the original `prepare` the cache calls).
    expect(compile).toHaveBeenCalledTimes(2);
    expect(db.select().from(t).where(sql`${t.id} = ${2}`).all()).toEqual([{ id: 2, name: 'n4' }]);
    // `$client` is the connection: full statements (iterate, pluck), compiled on every call as before.
    expect(db.$client).toBe(c);
    const own = db.$client.prepare('select name from t order by id');
    expect(own.pluck().all()).toEqual(['a', 'n4']);
    // drizzle's own synchronous transaction still runs on the session's client, and rolls back.
    expect(() =>
      db.transaction((tx) => {
        tx.update(t).set({ name: 'lost' }).where(sql`${t.id} = ${1}`).run();
        throw new Error('roll back');
      }),
    ).toThrow('roll back');
    expect(db.select().from(t).where(sql`${t.id} = ${1}`).all()).toEqual([{ id: 1, name: 'a' }]);
  });

  it('keeps array rows of one use out of the next use that expects objects', () => {
    const c = client();
    const { client: session, kept } = keepStatements(c);
    const text = 'select id, name from t order by id';
    const viaArrays = session.prepare(text) as unknown as { raw(): { all(): unknown[] } };
    expect(viaArrays.raw().all()).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    const viaObjects = session.prepare(text) as unknown as { all(): unknown[]; get(): unknown };
    expect(viaObjects.all()).toEqual([
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
    ]);
    expect(viaArrays.raw().all()).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    // The first view, held on to as drizzle's prepared queries do, still answers objects.
    expect((viaArrays as unknown as { get(): unknown }).get()).toEqual({ id: 1, name: 'a' });
    expect(kept.size).toBe(1);
  });

  it('keeps at most its size, the least recently used leaving first', () => {
    const c = client();
    const { client: session, kept } = keepStatements(c, 3);
    for (const n of [1, 2, 3]) session.prepare(`select ${n}`);
    session.prepare('select 1');
    session.prepare('select 4');
    expect([...kept.keys()].sort()).toEqual(['select 1', 'select 3', 'select 4']);
    // A hit keeps its statement: `select 3` is now the least recent and leaves for the next one.
    session.prepare('select 5');
    expect([...kept.keys()].sort()).toEqual(['select 1', 'select 4', 'select 5']);
  });

  it('hands out a fresh statement while the kept one is being iterated', () => {
    const session = keepStatements(client()).client;
    const first = session.prepare('select name from t order by id') as unknown as {
      statement: BetterSqlite3.Statement;
    };
    const rows = first.statement.iterate();
    expect(rows.next().value).toEqual({ name: 'a' });
    const second = session.prepare('select name from t order by id') as unknown as {
      statement: BetterSqlite3.Statement;
      all(): unknown[];
    };
    expect(second.statement).not.toBe(first.statement);
    expect(second.all()).toEqual([{ name: 'a' }, { name: 'b' }]);
    rows.return?.();
  });

  it('sees a column added after the statement was kept', () => {
    const c = client();
    const session = keepStatements(c).client;
    const before = session.prepare('select * from t where id = 1') as unknown as { get(): unknown };
    expect(before.get()).toEqual({ id: 1, name: 'a' });
    c.exec("alter table t add column note text default 'x'");
    const after = session.prepare('select * from t where id = 1') as unknown as { get(): unknown };
    expect(after.get()).toEqual({ id: 1, name: 'a', note: 'x' });
  });
});

describe('appends of several statements', () => {
  it('write all rows or none: a failing later statement takes the earlier ones back', async () => {
    const c = client();
    const db = drizzle({ client: c });
    useKeptStatements(db, c);
    const t = sqliteTable('t', { id: integer('id').primaryKey(), name: text('name').notNull() });
    const columns = [t.name];
    const count = () => (c.prepare('select count(*) n from t').get() as { n: number }).n;
    const before = count();
    // Three rows are two statements (2 + 1); the last row breaks NOT NULL.
    await expect(
      sqliteAdapter.appendRows?.(db as never, t, columns, [['x'], ['y'], [null]]),
    ).rejects.toThrow();
    expect(count()).toBe(before);
    await sqliteAdapter.appendRows?.(db as never, t, columns, [['x'], ['y'], ['z']]);
    expect(count()).toBe(before + 3);
    // No savepoint is left open: a later transaction of the connection begins and commits.
    c.exec('begin immediate; commit');
  });
});

describe('appends and the SQL log', () => {
  const t = sqliteTable('t', { id: integer('id').primaryKey(), name: text('name').notNull() });

  it('are timed by the connection observer with their statement and values, failures included', async () => {
    const c = client();
    const heard: { sql: string; params: unknown[]; error?: unknown }[] = [];
    const logged: string[] = [];
    const observed = createQueryInstrumentation(
      {
        start(text, params) {
          // The append refills its parameter array for the next statement: what is heard is copied now.
          const entry: (typeof heard)[number] = { sql: text, params: [...params] };
          heard.push(entry);
          return (error) => {
            if (error !== undefined) entry.error = error;
          };
        },
      },
      { logQuery: (text) => logged.push(text) },
    );
    const db = drizzle({ client: c, logger: observed.logger });
    observed.instrument(db as never);
    useKeptStatements(db, c);
    gateStatements(db, registerGate(db as never, ':memory:observed', 1_000, false));
    await sqliteAdapter.appendRows?.(db as never, t, [t.name], [['x'], ['y']]);
    expect(heard).toEqual([{ sql: 'insert into "t" ("name") values (?), (?)', params: ['x', 'y'] }]);
    expect(logged).toEqual(['insert into "t" ("name") values (?), (?)']);
    heard.length = 0;
    await expect(sqliteAdapter.appendRows?.(db as never, t, [t.name], [['z'], [null]])).rejects.toThrow(
      /NOT NULL/,
    );
    const failed = heard.find((h) => h.params.includes(null));
    expect(failed?.error).toBeInstanceOf(Error);
    // Inside a transaction handle the append is heard too.
    heard.length = 0;
    await sqliteAdapter.transaction(db as never, async (tx) => {
      await sqliteAdapter.appendRows?.(tx, t, [t.name], [['w']]);
    });
    expect(heard.map((h) => h.params)).toContainEqual(['w']);
  });

  it("reach drizzle's logger of a connection without an observer", async () => {
    const c = client();
    const logged: { sql: string; params: unknown[] }[] = [];
    const db = drizzle({
      client: c,
      logger: { logQuery: (text, params) => logged.push({ sql: text, params: [...params] }) },
    });
    useKeptStatements(db, c);
    await sqliteAdapter.appendRows?.(db as never, t, [t.name], [['x']]);
    expect(logged).toEqual([{ sql: 'insert into "t" ("name") values (?)', params: ['x'] }]);
  });
});

describe('append sizes', () => {
  it('sends a full batch whole and splits the rest into powers of two', () => {
    const sizes = (n: number, per = 2_520) => {
      const out: number[] = [];
      for (let left = n; left > 0; ) {
        const size = appendSize(left, per);
        out.push(size);
        left -= size;
      }
      return out;
    };
    expect(sizes(200)).toEqual([200]);
    expect(sizes(137)).toEqual([128, 8, 1]);
    expect(sizes(401)).toEqual([200, 200, 1]);
    expect(sizes(1)).toEqual([1]);
    // A table too wide for 200 rows per statement: full statements of what fits.
    expect(sizes(250, 100)).toEqual([100, 100, 32, 16, 2]);
    const distinct = new Set<number>();
    for (let n = 1; n <= 200; n++) for (const s of sizes(n)) distinct.add(s);
    expect(distinct.size).toBe(9);
  });
});
