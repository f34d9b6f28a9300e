/**
 * Operation-log durability (contract §10, issue 11): retries, the spill under a directory, its replay on
 * recovery and at the next start (exactly once with a stored-row lookup), the cap (oldest dropped, counted),
 * and what shutdown does with rows it could not write. The sink is a controllable fake database; no timers
 * are waited on (retries use a sleep that returns at once, conditions are awaited, not time).
 */
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NewOpLog } from '@svc/data';
import { opLogRow } from '@svc/data/testing';
import { silentLogger } from '@svc/kernel';
import { describe, expect, it } from 'vitest';
import { createConsoleLogger } from '../console-logger.js';
import { createOpLogWriter, type OpLogEntry, type OpLogWriterOptions } from './writer.js';

const row = (n: number): NewOpLog =>
  opLogRow({
    title: `op ${n}`,
    paramJson: '{"a":1}',
    ip: '127.0.0.1',
    userAgent: 'test',
    traceId: `trace-${n}`,
    createTime: new Date(1_700_000_000_000 + n),
  });

/** A database that can be taken down and brought back. */
function fakeDatabase() {
  const stored: NewOpLog[] = [];
  const db = {
    down: false,
    calls: 0,
    stored,
    insertMany: async (rows: readonly NewOpLog[]) => {
      db.calls++;
      if (db.down) throw new Error('relation "sys_op_log" does not exist');
      stored.push(...rows);
      return rows.length;
    },
    existing: async (rows: readonly NewOpLog[]) => {
      const ids = new Set(stored.map((r) => r.traceId));
      return new Set(rows.flatMap((r, i) => (ids.has(r.traceId) ? [i] : [])));
    },
  };
  return db;
}

/**
 * Resolves once `condition` holds: after each turn of the event loop, then every few milliseconds (spill files
 * are written through the file system, whose answers a count of turns cannot be sure to outlast). The limit
 * only keeps a broken writer from hanging the run.
 */
async function until(condition: () => boolean, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (let turn = 0; ; turn++) {
    if (condition()) return;
    if (Date.now() > deadline) throw new Error('condition never held');
    await new Promise((resolve) => (turn < 1_000 ? setImmediate(resolve) : setTimeout(resolve, 5)));
  }
}

const noWait = async () => {};

function writerOn(db: ReturnType<typeof fakeDatabase>, dir: string, extra: Partial<OpLogWriterOptions> = {}) {
  return createOpLogWriter({
    sink: db,
    logger: silentLogger,
    spill: { dir, name: 'oplog-spill', maxBytes: 1024 * 1024 },
    existing: db.existing,
    sleep: noWait,
    flushIntervalMs: 0,
    ...extra,
  });
}

const tmp = () => mkdtempSync(join(tmpdir(), 'svc-spill-'));
const titles = (rows: readonly NewOpLog[]) => rows.map((r) => r.title);

describe('operation-log durability', () => {
  it('retries a failed batch, spills it, and replays it once the database answers: none lost, none twice', async () => {
    const db = fakeDatabase();
    const writer = writerOn(db, tmp(), { retryDelaysMs: [1, 1] });
    db.down = true;
    for (let i = 0; i < 300; i++) await writer.write(row(i));
    await until(() => writer.stats().spilled === 300);
    // The first batch had three attempts (two retries); the database was then known to fail.
    expect(db.calls).toBeGreaterThanOrEqual(3);
    expect(writer.stats()).toMatchObject({ queued: 0, dropped: 0, failing: true, spilledTotal: 300 });

    db.down = false;
    await writer.write(row(300));
    await until(() => writer.stats().spilled === 0 && writer.stats().queued === 0);
    await writer.replay();
    expect(new Set(titles(db.stored)).size).toBe(301);
    expect(db.stored).toHaveLength(301);
    expect(writer.stats()).toMatchObject({ dropped: 0, failing: false, replayed: 300 });
    writer.close();
  });

  it('writes the parameter text of queued rows before they reach the database or the spill', async () => {
    const db = fakeDatabase();
    const pending = (n: number): OpLogEntry => ({
      ...row(n),
      paramJson: null,
      pendingParams: { params: { id: String(n) }, bodyJson: '{"password":"p","n":1}', maxChars: 8192 },
    });
    const expected = (n: number) => `{"params":{"id":"${n}"},"body":{"password":"***","n":1}}`;
    db.down = true;
    const writer = writerOn(db, tmp(), { capacity: 10, retryDelaysMs: [] });
    // Twenty rows through a queue of ten while the database is away: the failed batches and the queue's
    // overflow both go to the spill.
    for (let i = 0; i < 20; i++) writer.enqueue(pending(i));
    await until(() => writer.stats().queued === 0 && writer.stats().spilled === 20);
    db.down = false;
    await writer.write(pending(20));
    await until(() => writer.stats().queued === 0);
    await writer.replay();
    expect(db.stored).toHaveLength(21);
    for (const stored of db.stored) {
      const n = Number(stored.title.slice(3));
      expect(stored.paramJson).toBe(expected(n));
      expect((stored as OpLogEntry).pendingParams).toBeUndefined();
    }
    writer.close();

    const sync = createOpLogWriter({ sink: db, logger: silentLogger, sync: true });
    await sync.write(pending(21));
    expect(db.stored.at(-1)?.paramJson).toBe(expected(21));
  });

  it('spills the oldest queued rows instead of dropping them when the queue is full', async () => {
    const db = fakeDatabase();
    db.down = true;
    const writer = writerOn(db, tmp(), { capacity: 10, retryDelaysMs: [] });
    for (let i = 0; i < 40; i++) await writer.write(row(i));
    await until(() => writer.stats().queued === 0 && writer.stats().spilled === 40);
    db.down = false;
    await writer.replay();
    expect(new Set(titles(db.stored)).size).toBe(40);
    expect(writer.stats().dropped).toBe(0);
    writer.close();
  });

  it('spills a full queue a batch at a time, oldest first, while an insert is stuck', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const db = fakeDatabase();
    const slow = {
      ...db,
      insertMany: async (rows: readonly NewOpLog[]) => {
        await gate;
        return db.insertMany(rows);
      },
    };
    const writer = createOpLogWriter({
      sink: slow,
      logger: silentLogger,
      spill: { dir: tmp(), name: 'oplog-spill', maxBytes: 1024 * 1024 },
      existing: db.existing,
      sleep: noWait,
      capacity: 10,
      batchSize: 4,
    });
    await writer.write(row(0));
    await new Promise((r) => setImmediate(r)); // row 0 is in flight, stuck at the gate
    for (let i = 1; i <= 10; i++) await writer.write(row(i));
    expect(writer.stats()).toMatchObject({ queued: 10, spilledTotal: 0 });
    await writer.write(row(11));
    // One append of the four oldest queued rows, not one row per write.
    expect(writer.stats()).toMatchObject({ queued: 7, spilledTotal: 4, dropped: 0 });
    for (let i = 12; i <= 14; i++) await writer.write(row(i));
    expect(writer.stats()).toMatchObject({ queued: 10, spilledTotal: 4 });
    release();
    await writer.drain(5000);
    await writer.replay();
    expect(titles(db.stored).sort()).toEqual(Array.from({ length: 15 }, (_, i) => `op ${i}`).sort());
    writer.close();
  });

  it('writes a sync-mode row that failed to the spill before answering', async () => {
    const db = fakeDatabase();
    db.down = true;
    const writer = writerOn(db, tmp(), { sync: true, retryDelaysMs: [1] });
    await writer.write(row(1));
    expect(writer.stats()).toMatchObject({ spilled: 1, dropped: 0 });
    db.down = false;
    await writer.replay();
    expect(titles(db.stored)).toEqual(['op 1']);
    writer.close();
  });

  it('replays the spill of an earlier run at the next start', async () => {
    const dir = tmp();
    const first = fakeDatabase();
    first.down = true;
    const before = writerOn(first, dir, { retryDelaysMs: [] });
    for (let i = 0; i < 50; i++) await before.write(row(i));
    // Shutdown with the database still down: what could not be written goes to the spill.
    const left = await before.drain(60_000);
    before.close();
    expect(left).toMatchObject({ queued: 0, spilled: 50, dropped: 0 });
    const [segment] = readdirSync(dir);
    expect(statSync(join(dir, segment ?? '')).mode & 0o077).toBe(0);

    const db = fakeDatabase();
    const after = writerOn(db, dir);
    await until(() => db.stored.length === 50);
    expect(after.stats()).toMatchObject({ spilled: 0, replayed: 50 });
    expect(readdirSync(dir)).toEqual([]);
    after.close();
  });

  it('spills at the drain deadline the batch whose INSERT has not answered, and never spills it twice', async () => {
    const dir = tmp();
    let release: (error: Error) => void = () => {};
    let started = 0;
    const hanging = {
      insertMany: (_rows: readonly NewOpLog[]) => {
        started++;
        return new Promise<number>((_, reject) => {
          release = reject;
        });
      },
    };
    const writer = createOpLogWriter({
      sink: hanging,
      logger: silentLogger,
      spill: { dir, name: 'oplog-spill', maxBytes: 1024 * 1024 },
      sleep: noWait,
      retryDelaysMs: [],
    });
    for (let i = 0; i < 5; i++) await writer.write(row(i));
    await until(() => started === 1);
    for (let i = 5; i < 8; i++) await writer.write(row(i));
    const left = await writer.drain(0);
    expect(left).toMatchObject({ queued: 0, spilled: 8, dropped: 0 });
    // The hung INSERT fails late: its rows are already in the spill and are not added again.
    release(new Error('connection terminated'));
    await until(() => writer.stats().failed === 5);
    expect(writer.stats().spilled).toBe(8);
    writer.close();

    const db = fakeDatabase();
    const next = writerOn(db, dir);
    await until(() => db.stored.length === 8);
    expect(new Set(titles(db.stored)).size).toBe(8);
    next.close();
  });

  it('writes nothing twice after a crash between a replayed batch and its checkpoint', async () => {
    const dir = tmp();
    const down = fakeDatabase();
    down.down = true;
    const spiller = writerOn(down, dir, { retryDelaysMs: [] });
    for (let i = 0; i < 10; i++) await spiller.write(row(i));
    await spiller.drain(60_000);
    spiller.close();

    // The first replayed batch commits, then the process dies before the checkpoint is written.
    const db = fakeDatabase();
    let crashed = false;
    const crashing = {
      insertMany: async (rows: readonly NewOpLog[]) => {
        await db.insertMany(rows);
        if (!crashed) {
          crashed = true;
          throw new Error('process killed');
        }
        return rows.length;
      },
    };
    const dying = createOpLogWriter({
      sink: crashing,
      logger: silentLogger,
      spill: { dir, name: 'oplog-spill', maxBytes: 1024 * 1024 },
      existing: db.existing,
      replayBatchSize: 4,
      sleep: noWait,
    });
    await until(() => crashed);
    dying.close();
    expect(db.stored).toHaveLength(4);

    const restarted = writerOn(db, dir, { replayBatchSize: 4 });
    await until(() => restarted.stats().spilled === 0);
    expect(titles(db.stored).sort()).toEqual(titles(Array.from({ length: 10 }, (_, i) => row(i))).sort());
    restarted.close();
  });

  it('drops only beyond the spill cap, oldest first, counted and logged', async () => {
    const lines: string[] = [];
    const db = fakeDatabase();
    db.down = true;
    const oneRow = Buffer.byteLength(`${JSON.stringify(row(10))}\n`);
    const writer = writerOn(db, tmp(), {
      retryDelaysMs: [],
      batchSize: 10,
      logger: createConsoleLogger({ sink: (line) => lines.push(line) }),
      // Room for 20 rows: eight segments of two or three rows each.
      spill: { dir: tmp(), name: 'oplog-spill', maxBytes: oneRow * 20 },
    });
    for (let i = 10; i < 110; i++) await writer.write(row(i));
    await until(() => writer.stats().queued === 0 && writer.stats().spilled + writer.stats().dropped === 100);
    const { spilled, dropped } = writer.stats();
    expect(spilled).toBeGreaterThan(0);
    expect(spilled).toBeLessThanOrEqual(20);
    expect(dropped).toBe(100 - spilled);
    expect(lines.some((l) => l.includes('over its cap') && l.includes('dropped the oldest'))).toBe(true);

    db.down = false;
    await writer.replay();
    // What survived is the newest rows, in order.
    const kept = titles(db.stored);
    expect(kept).toEqual(titles(Array.from({ length: spilled }, (_, i) => row(110 - spilled + i))));
    writer.close();
  });
});
