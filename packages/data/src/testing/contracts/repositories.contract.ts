/**
 * Contract: repositories and paging, written once and run on every dialect. Users are found by trimmed,
 * case-insensitive account; exception logs are truncated to the spec's limits, paged newest first and cleared
 * with a count; config rows are inserted only when absent; paging follows contract §3.
 */
import { and, asc, count, eq, inArray, max, min, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paginate } from '../../paging.js';
import type { DataScopeFilter } from '../../repositories/data-scope.js';
import { createRepositories, type Repositories } from '../../repositories/index.js';
import { RETENTION_CHUNK } from '../../repositories/log-retention.js';
import { createLoginLogRepository } from '../../repositories/login-logs.js';
import { createOpLogRepository, opLogRowsPerInsert } from '../../repositories/op-logs.js';
import { LIVE_USERS } from '../../repositories/users.js';
import { type DialectFixture, opLogRow } from '../fixtures.js';
import { type OpenTestDatabase, openTestDatabase, testDialects } from '../test-database.js';

export function repositoriesContract(fixture: DialectFixture): void {
  describe.skipIf(!testDialects().includes(fixture.dbType))(`repositories (${fixture.dbType})`, () => {
    let t: OpenTestDatabase;
    let repos: Repositories;
    beforeAll(async () => {
      t = await openTestDatabase(fixture.dbType);
      repos = createRepositories(t.database);
    });
    afterAll(() => t?.cleanup());

    describe('users', () => {
      it('counts all rows and live rows, finds by trimmed case-insensitive account and by id', async () => {
        const alice = await repos.users.insert({ account: 'Alice', realName: 'Alice A', password: 'h1' });
        const gone = await repos.users.insert({
          account: 'bob',
          realName: 'Bob',
          password: 'h2',
          isDelete: true,
        });
        expect(await repos.users.countAll()).toBe(2);
        expect(await repos.users.countLive()).toBe(1);

        const found = await repos.users.findByAccount('  aLiCe ');
        expect(found?.id).toBe(alice);
        expect(found?.account).toBe('Alice');
        expect(found?.enabled).toBe(true);
        expect(found?.createTime).toBeInstanceOf(Date);
        expect(await repos.users.findByAccount('   ')).toBeUndefined();
        expect(await repos.users.findByAccount('BOB')).toBeUndefined();
        expect((await repos.users.findByAccount('BOB', { includeDeleted: true }))?.id).toBe(gone);
        expect(await repos.users.findById(gone)).toBeUndefined();
        expect((await repos.users.findById(gone, { includeDeleted: true }))?.isDelete).toBe(true);
      });

      it('keeps the live-user counter exact in the database, whoever writes, and pages the unfiltered total from it', async () => {
        const { db, adapter, tables } = t.database;
        const u = tables.sysUser;
        const c = tables.sysCounter;
        const stamp = { at: new Date(), userId: 1 };
        const all = { all: true, orgIds: [], selfUserId: null };
        const exact = async () =>
          Number((await db.select({ n: count() }).from(u).where(eq(u.isDelete, false)))[0]?.n ?? 0);
        const counter = async () =>
          Number((await db.select({ v: c.value }).from(c).where(eq(c.name, LIVE_USERS)))[0]?.v ?? Number.NaN);
        const agree = async () => {
          const want = await exact();
          expect(await counter()).toBe(want);
          expect((await repos.users.page({ size: 1 }, all)).total).toBe(want);
          expect(await repos.users.countLive()).toBe(want);
        };
        await agree();
        // Concurrent inserts through the repository, one of them with roles in its own transaction.
        const ids = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            i === 0
              ? repos.users.insertWithRoles({ account: `counted-${i}`, realName: 'C', password: 'h' }, [1])
              : repos.users.insert({ account: `counted-${i}`, realName: 'C', password: 'h' }),
          ),
        );
        await repos.users.insert({ account: 'counted-dead', realName: 'C', password: 'h', isDelete: true });
        await agree();
        // Soft delete (twice: the second changes nothing), restore, purge of a deleted row.
        expect(await repos.users.softDelete([ids[0] as number, ids[1] as number], stamp)).toBe(2);
        expect(await repos.users.softDelete([ids[0] as number], stamp)).toBe(0);
        await agree();
        expect(await repos.users.restore(ids[0] as number, stamp)).toBe(true);
        expect(await repos.users.purge(ids[1] as number)).toBe(true);
        await agree();
        // An import batch: creates and an update that leaves the flag alone.
        await repos.users.importBatch({
          creates: [{ user: { account: 'imported-1', realName: 'I', password: 'h' }, roleIds: [] }],
          updates: [{ id: ids[2] as number, patch: { realName: 'Renamed' } }],
          stamp,
        });
        await agree();
        // A rolled-back transaction leaves the counter as it was.
        await expect(
          adapter.transaction(db, async (tx) => {
            await adapter.insertReturningId(tx, u, { account: 'rolled-back', realName: 'R', password: 'h' });
            throw new Error('roll back');
          }),
        ).rejects.toThrow('roll back');
        await agree();
        // A DBA's SQL, past every repository: flag flips, a hard delete of a live row, an unrelated update.
        await db
          .update(u)
          .set({ isDelete: true })
          .where(eq(u.id, ids[3] as number));
        await db.update(u).set({ isDelete: false }).where(eq(u.account, 'counted-dead'));
        await db.delete(u).where(eq(u.id, ids[4] as number));
        await db
          .update(u)
          .set({ realName: 'Again' })
          .where(eq(u.id, ids[5] as number));
        await agree();
        // The unfiltered page reads the counter (a planted value shows); a filtered page still counts rows.
        const want = await exact();
        await db
          .update(c)
          .set({ value: want + 1000 })
          .where(eq(c.name, LIVE_USERS));
        try {
          expect((await repos.users.page({ size: 1 }, all)).total).toBe(want + 1000);
          expect((await repos.users.page({ size: 1, account: 'counted-' }, all)).total).toBe(
            Number(
              (
                await db
                  .select({ n: count() })
                  .from(u)
                  .where(and(eq(u.isDelete, false), sql`lower(${u.account}) like '%counted-%'`))
              )[0]?.n,
            ),
          );
          expect(
            (await repos.users.page({ size: 1 }, { all: false, orgIds: [], selfUserId: ids[0] as number }))
              .total,
          ).toBe(1);
        } finally {
          await db.update(c).set({ value: want }).where(eq(c.name, LIVE_USERS));
        }
        // Without the row (removed by hand) the page counts again.
        await db.delete(c).where(eq(c.name, LIVE_USERS));
        try {
          expect((await repos.users.page({ size: 1 }, all)).total).toBe(want);
        } finally {
          await db.insert(c).values({ name: LIVE_USERS, value: want });
        }
      });

      it('updates the password fields and reports a missing user', async () => {
        const id = await repos.users.insert({ account: 'carol', realName: 'Carol', password: 'old' });
        const changed = new Date('2025-01-02T03:04:05.678Z');
        expect(
          await repos.users.updatePassword(id, {
            password: 'new',
            lastPasswordChangeTime: changed,
            mustChangePassword: true,
            updateUserId: 7,
          }),
        ).toBe(true);
        const row = await repos.users.findById(id);
        expect(row).toMatchObject({ password: 'new', mustChangePassword: true, updateUserId: 7 });
        expect(row?.lastPasswordChangeTime?.toISOString()).toBe(changed.toISOString());
        expect(row?.updateTime).toBeInstanceOf(Date);
        expect(
          await repos.users.updatePassword(999_999, {
            password: 'x',
            lastPasswordChangeTime: null,
            mustChangePassword: false,
          }),
        ).toBe(false);
      });
    });

    describe('operation log', () => {
      it('stores batches of any size, twice (statements reused), with every value as given', async () => {
        const t0 = Date.UTC(2026, 10, 26, 8, 0, 0, 0);
        // Two full chunks of the dialect's statement size and a tail where chunks apply (MySQL, SQL Server).
        const n = 2 * opLogRowsPerInsert(fixture.dbType) + 10;
        const rows = Array.from({ length: n }, (_, i) => ({
          title: `op ${i}`,
          httpMethod: i % 2 ? 'POST' : 'DELETE',
          path: `/api/v1/x/${i}`,
          paramJson: i % 3 ? null : `{"i":${i}}`,
          resultCode: i % 4 ? 0 : 42001,
          success: i % 4 !== 0,
          elapsedMs: i,
          operatorId: i % 5 ? i : null,
          operatorName: i % 5 ? `user ${i}` : null,
          ip: i % 7 ? '127.0.0.1' : null,
          userAgent: 'ua',
          traceId: `trace-${String(i).padStart(4, '0')}`,
          // Milliseconds included: every dialect keeps the instant exactly.
          createTime: new Date(t0 + i * 1001 + 7),
        }));
        // Twice: the second run reuses the statement of the first.
        expect(await repos.opLogs.insertMany(rows)).toBe(n);
        expect(
          await repos.opLogs.insertMany(rows.map((r) => ({ ...r, traceId: `again-${r.traceId}` }))),
        ).toBe(n);
        expect(await repos.opLogs.count()).toBe(2 * n);
        const stored = new Map<string, unknown>();
        for (let current = 1; current <= Math.ceil((2 * n) / 100); current++) {
          const p = await repos.opLogs.page({ size: 100, current, sortField: 'id', sortOrder: 'asc' });
          for (const item of p.items) stored.set(item.traceId ?? '', item);
        }
        expect(stored.size).toBe(2 * n);
        for (const r of rows) {
          for (const traceId of [r.traceId, `again-${r.traceId}`]) {
            expect(stored.get(traceId)).toMatchObject({ ...r, traceId, createTime: r.createTime });
          }
        }
      });

      it('finds stored trace ids, within a time span when given one; takes times as epoch milliseconds', async () => {
        await repos.opLogs.deleteAll();
        const t0 = Date.UTC(2026, 10, 27, 9, 0, 0, 0);
        const at = (traceId: string, createTime: number) => opLogRow({ traceId, createTime });
        // A batch as the operation log queues it (epoch milliseconds), then one in a Date an hour later.
        await repos.opLogs.insertMany([at('early', t0), at('early-2', t0 + 999)]);
        await repos.opLogs.insertMany([{ ...at('late', 0), createTime: new Date(t0 + 3_600_000) }]);
        const page = await repos.opLogs.page({ size: 10, current: 1, sortField: 'id', sortOrder: 'asc' });
        expect(page.items.map((item) => item.createTime)).toEqual([
          new Date(t0),
          new Date(t0 + 999),
          new Date(t0 + 3_600_000),
        ]);
        const all = ['early', 'early-2', 'late', 'never'];
        expect([...(await repos.opLogs.storedTraceIds(all))].sort()).toEqual(['early', 'early-2', 'late']);
        // Within the first batch's span (ends included, as numbers or Dates): the later row is not looked at.
        expect([...(await repos.opLogs.storedTraceIds(all, { from: t0, to: t0 + 999 }))].sort()).toEqual([
          'early',
          'early-2',
        ]);
        expect([
          ...(await repos.opLogs.storedTraceIds(all, {
            from: new Date(t0 + 3_000_000),
            to: new Date(t0 + 4_000_000),
          })),
        ]).toEqual(['late']);
        expect(await repos.opLogs.storedTraceIds(all, { from: t0 + 1_000, to: t0 + 2_000 })).toEqual(
          new Set(),
        );
        await repos.opLogs.deleteAll();
      });

      it("stores concurrent appends whole and apart, and a batch above SQLite's 32,766 parameters", async () => {
        await repos.opLogs.deleteAll();
        const batch = (tag: string, size: number) =>
          Array.from({ length: size }, (_, i) => ({
            title: tag,
            httpMethod: 'POST',
            path: `/api/v1/${tag}/${i}`,
            paramJson: null,
            resultCode: 0,
            success: true,
            elapsedMs: i,
            operatorId: 1,
            operatorName: tag,
            ip: null,
            userAgent: null,
            traceId: `${tag}-${String(i).padStart(5, '0')}`,
            createTime: new Date(Date.UTC(2026, 10, 26) + i),
          }));
        // Three appends in flight at once (statements whose parameters are refilled per run must not mix), one
        // of them 2,600 rows: 33,800 values, split into two statements on SQLite.
        const sizes = { a: 2_600, b: 200, c: 7 };
        const written = await Promise.all(
          Object.entries(sizes).map(([tag, size]) => repos.opLogs.insertMany(batch(tag, size))),
        );
        expect(written).toEqual(Object.values(sizes));
        expect(await repos.opLogs.count()).toBe(2_807);
        const stored: { title: string; path: string; traceId: string | null; elapsedMs: number }[] = [];
        for (let current = 1; current <= 29; current++) {
          const p = await repos.opLogs.page({ size: 100, current, sortField: 'id', sortOrder: 'asc' });
          stored.push(...p.items);
        }
        for (const [tag, size] of Object.entries(sizes)) {
          const rows = stored.filter((r) => r.title === tag);
          expect(rows).toHaveLength(size);
          // Each row whole (its path, trace id and elapsed time belong together), in the order given.
          rows.forEach((r, i) => {
            expect(r).toMatchObject({
              path: `/api/v1/${tag}/${i}`,
              traceId: `${tag}-${String(i).padStart(5, '0')}`,
              elapsedMs: i,
            });
          });
        }
      });

      it('stores a batch whose texts hold NUL, a lone surrogate, quotes, escapes and non-Latin text', async () => {
        const odd = [
          '/api/v1/x/%00/\u0000\0',
          '/api/v1/x/\ud800/lone',
          'tab\tnew\nline "quoted" \\back\\slash',
          '/api/v1/用户/😀/Ω',
        ];
        const rows = odd.map((text, i) => ({
          title: text,
          httpMethod: 'POST',
          path: text,
          paramJson: JSON.stringify({ text }),
          // A code a consumer made fractional or beyond 32 bits is stored within the column, not refused.
          resultCode: [0, 1.5, 2 ** 40, -(2 ** 40)][i] as number,
          success: true,
          elapsedMs: 1,
          operatorId: 1,
          operatorName: text,
          ip: '::1',
          userAgent: text,
          traceId: `odd-${i}`,
          createTime: new Date(),
        }));
        // PostgreSQL refuses NUL in text and lone surrogates in JSON: there they become U+FFFD (a bound value
        // with either failed its whole batch, and with it the retries and every replay of its spill).
        // SQLite keeps the three bytes better-sqlite3 encodes for a lone surrogate, read back as three U+FFFD.
        const storable = (text: string) => text.toWellFormed().replaceAll('\0', '\uFFFD');
        const asBytes = (text: string) => text.replace(/[\ud800-\udfff]/g, '\uFFFD'.repeat(3));
        const forms = (text: string) => [text, storable(text), asBytes(text)];
        await repos.opLogs.deleteAll();
        expect(await repos.opLogs.insertMany(rows)).toBe(rows.length);
        const page = await repos.opLogs.page({ size: 10, current: 1, sortField: 'id', sortOrder: 'asc' });
        expect(page.items.map((item) => item.traceId)).toEqual(rows.map((r) => r.traceId));
        page.items.forEach((item, i) => {
          const text = odd[i] as string;
          for (const value of [item.title, item.path, item.operatorName, item.userAgent]) {
            expect(forms(text)).toContain(value);
          }
          expect(forms(JSON.stringify({ text }))).toContain(item.paramJson);
        });
        expect(page.items.map((item) => item.resultCode)).toEqual([0, 1, 2_147_483_647, -2_147_483_648]);
      });

      it('deletes the rows older than a cutoff in chunks, oldest first, and keeps the newer ones', async () => {
        await repos.opLogs.deleteAll();
        const cutoff = new Date(Date.UTC(2026, 0, 1));
        const old = Array.from({ length: 2 * RETENTION_CHUNK + 1 }, (_, i) =>
          opLogRow({ traceId: `old-${i}`, createTime: new Date(cutoff.getTime() - (i + 1) * 1000) }),
        );
        const kept = [0, 1, 2].map((i) =>
          opLogRow({ traceId: `kept-${i}`, createTime: new Date(cutoff.getTime() + i * 1000) }),
        );
        await repos.opLogs.insertMany([...old.slice(0, 600), ...kept, ...old.slice(600)]);
        expect(await repos.opLogs.deleteOlderThan(cutoff)).toBe(old.length);
        expect(await repos.opLogs.count()).toBe(3);
        expect(await repos.opLogs.deleteOlderThan(cutoff)).toBe(0);
        await repos.opLogs.deleteAll();
      });

      it("answers the whole log's total from its id span from the exact limit on, and counts below it and when filtered", async () => {
        const { db, tables } = t.database;
        const limit = 50;
        const opLogs = createOpLogRepository(t.database, limit);
        const loginLogs = createLoginLogRepository(t.database, limit);
        const all: DataScopeFilter = { all: true, orgIds: [], selfUserId: null };
        const self: DataScopeFilter = { all: false, orgIds: [], selfUserId: 7 };
        const span = async (table: typeof tables.sysOpLog | typeof tables.sysLoginLog) => {
          const [row] = await db.select({ low: min(table.id), high: max(table.id) }).from(table);
          return Number(row?.high) - Number(row?.low) + 1;
        };
        const middle = async (table: typeof tables.sysOpLog | typeof tables.sysLoginLog, n: number) => {
          const ids = (await db.select({ id: table.id }).from(table).orderBy(asc(table.id))).map((r) => r.id);
          const from = Math.floor(ids.length / 2);
          await db.delete(table).where(inArray(table.id, ids.slice(from, from + n)));
        };
        for (const log of ['op', 'login'] as const) {
          const table = log === 'op' ? tables.sysOpLog : tables.sysLoginLog;
          const append = async (n: number) => {
            if (log === 'op') {
              await opLogs.insertMany(
                Array.from({ length: n }, (_, i) =>
                  opLogRow({ success: i % 3 !== 0, operatorId: i % 2 ? 7 : 8 }),
                ),
              );
            } else {
              for (let i = 0; i < n; i++) {
                await loginLogs.insert({
                  account: 'a',
                  success: true,
                  resultCode: 0,
                  userId: i % 2 ? 7 : 8,
                  createTime: new Date(),
                });
              }
            }
          };
          const page = (query: { success?: boolean } = {}, scope = all) =>
            log === 'op' ? opLogs.page({ size: 10, ...query }, scope) : loginLogs.page({ size: 10 }, scope);
          const exact = async () => Number((await db.select({ n: count() }).from(table))[0]?.n ?? 0);
          await (log === 'op' ? opLogs : loginLogs).deleteAll();

          // Below the limit: counted, a DBA's delete of rows in the middle included.
          await append(40);
          await middle(table, 5);
          expect(await exact()).toBe(35);
          expect((await page()).total).toBe(35);

          // From the limit on: the span of the ids (here the five deleted rows more than the count), not a COUNT.
          await append(30);
          const spanned = await span(table);
          expect(spanned).toBeGreaterThanOrEqual(70);
          expect(await exact()).toBe(65);
          const whole = await page();
          expect(whole.total).toBe(spanned);
          expect(whole.pages).toBe(Math.ceil(spanned / 10));
          expect(whole.items).toHaveLength(10);
          // Filtered or scoped pages still count exactly.
          if (log === 'op') expect((await page({ success: false })).total).toBe(22);
          expect((await page({}, self)).total).toBe(33);

          // Cleared: nothing to span, counted again.
          await (log === 'op' ? opLogs : loginLogs).deleteAll();
          expect((await page()).total).toBe(0);
        }
      });
    });

    describe('exception logs', () => {
      it('truncates message to 2000 and stack to 8000 characters', async () => {
        const id = await repos.exceptionLogs.insert({
          httpMethod: 'GET',
          path: '/api/v1/x',
          traceId: 'trace-1',
          exceptionType: 'TypeError',
          message: 'm'.repeat(2500),
          stackTrace: 's'.repeat(9000),
        });
        const page = await repos.exceptionLogs.page({ current: 1, size: 50 });
        const row = page.items.find((r) => r.id === id);
        expect(row?.message).toHaveLength(2000);
        expect(row?.stackTrace).toHaveLength(8000);
      });

      // The row of a failure a NUL in the request caused (a path parameter) is stored on every dialect.
      it('stores texts with NUL or a lone surrogate, as U+FFFD', async () => {
        const id = await repos.exceptionLogs.insert({
          httpMethod: 'GET',
          path: '/api/v1/sys/dict/items/a\u0000b',
          traceId: 'trace-nul',
          exceptionType: 'Error',
          message: 'bad \u0000 \ud800 text',
          stackTrace: 'at \u0000',
        });
        const row = (await repos.exceptionLogs.page({ current: 1, size: 50 })).items.find((r) => r.id === id);
        expect(row).toMatchObject({
          path: '/api/v1/sys/dict/items/a\uFFFDb',
          message: 'bad \uFFFD \uFFFD text',
          stackTrace: 'at \uFFFD',
        });
      });

      it('finds a folded row by any trace id it keeps, whole ids only, as folds update it', async () => {
        await repos.exceptionLogs.deleteAll();
        const row = { httpMethod: 'GET', path: '/f', exceptionType: 'Error', message: 'm' };
        const single = await repos.exceptionLogs.insert({ ...row, traceId: 'abc_1' });
        const folded = await repos.exceptionLogs.insert({
          ...row,
          traceId: 'a1',
          message: '[repeated 1 times in 60 s] m',
          traceIds: ['a1'],
        });
        const ids = async (traceId: string) =>
          (await repos.exceptionLogs.page({ traceId })).items.map((r) => r.id).sort((a, b) => a - b);
        expect(await ids('a1')).toEqual([folded]);
        await repos.exceptionLogs.fold(folded, {
          message: '[repeated 150 times in 60 s] m',
          traceIds: Array.from({ length: 150 }, (_, i) => `a${i + 1}`),
        });
        expect(await ids('a2')).toEqual([folded]);
        expect(await ids('A100')).toEqual([folded]);
        // Past the hundredth id only the count grows; parts of ids and LIKE wildcards match nothing.
        for (const miss of [
          'a101',
          'a',
          '1',
          'a%',
          '%',
          '_',
          'a_',
          'a1 a2',
          'abc%',
          '[a]1',
          '[a-b]2',
          'a[0-9]',
        ])
          expect(await ids(miss), miss).toEqual([]);
        expect(await ids('abc_1')).toEqual([single]);
        expect(await ids('ABC_1')).toEqual([single]);
        const stored = (await repos.exceptionLogs.page({ traceId: 'a50' })).items[0];
        expect(stored?.message).toBe('[repeated 150 times in 60 s] m');
        expect(stored?.traceIds?.trim().split(' ')).toHaveLength(100);
        expect((await repos.exceptionLogs.page({})).items.find((r) => r.id === single)?.traceIds).toBeNull();
        expect((await repos.exceptionLogs.page({ traceId: '' })).total).toBe(2);
        // Brackets match themselves (SQL Server's LIKE would read them as a character class).
        const bracketed = await repos.exceptionLogs.insert({
          ...row,
          traceId: 'b0',
          traceIds: ['[b]1', 'b!2'],
        });
        expect(await ids('[b]1')).toEqual([bracketed]);
        expect(await ids('b!2')).toEqual([bracketed]);
        expect(await ids('b1')).toEqual([]);
      });

      it('pages newest first with the contract page shape, and deleteAll returns the count', async () => {
        await repos.exceptionLogs.deleteAll();
        const base = Date.parse('2025-06-01T00:00:00.000Z');
        for (let i = 0; i < 5; i++) {
          await repos.exceptionLogs.insert({
            httpMethod: 'POST',
            path: `/p${i}`,
            traceId: `t${i}`,
            exceptionType: 'Error',
            message: `m${i}`,
            createTime: new Date(base + i * 1000),
          });
        }
        const first = await repos.exceptionLogs.page({ current: 1, size: 2 });
        expect(first).toMatchObject({ current: 1, size: 2, total: 5, pages: 3 });
        expect(first.items.map((r) => r.path)).toEqual(['/p4', '/p3']);
        const last = await repos.exceptionLogs.page({ current: 3, size: 2 });
        expect(last.items.map((r) => r.path)).toEqual(['/p0']);
        expect((await repos.exceptionLogs.page({ current: 9, size: 2 })).items).toEqual([]);
        expect(await repos.exceptionLogs.deleteAll()).toBe(5);
        expect((await repos.exceptionLogs.page({})).total).toBe(0);
      });
    });

    describe('config', () => {
      it('inserts only absent keys, never overwrites, gets by key and lists by key', async () => {
        const row = { configKey: 'sys.b', configValue: '1', valueType: 'int' as const, name: 'B' };
        expect(await repos.configs.insertIfAbsent(row)).toBe(true);
        expect(await repos.configs.insertIfAbsent({ ...row, configValue: '2' })).toBe(false);
        expect(
          await repos.configs.insertManyIfAbsent([
            { configKey: 'sys.a', configValue: 'true', valueType: 'bool', name: 'A' },
            { ...row, configValue: '3' },
          ]),
        ).toBe(1);
        expect((await repos.configs.getByKey('sys.b'))?.configValue).toBe('1');
        expect(await repos.configs.getByKey('sys.none')).toBeUndefined();
        expect((await repos.configs.listAll()).map((c) => c.configKey)).toEqual(['sys.a', 'sys.b']);
      });
    });

    describe('paging (contract §3)', () => {
      it('defaults current and size, sorts only by real columns and breaks ties by id', async () => {
        const { adapter, db, tables } = t.database;
        const table = tables.sysPosition;
        const ids: number[] = [];
        for (let i = 0; i < 25; i++) {
          ids.push(
            await adapter.insertReturningId(db, table, {
              name: `n${i % 3}`,
              code: `c${String(i).padStart(2, '0')}`,
            }),
          );
        }
        const page = (query: Parameters<typeof paginate>[1]['query']) =>
          paginate(t.database, { table, query, defaultOrder: [table.id] });

        const defaults = await page({ current: 0, size: -5 });
        expect(defaults).toMatchObject({ current: 1, size: 20, total: 25, pages: 2 });
        expect(defaults.items.map((r) => r.id)).toEqual(ids.slice(0, 20));
        expect((await page({ current: '2', size: '20' })).items.map((r) => r.id)).toEqual(ids.slice(20));

        const byCodeDesc = await page({ sortField: 'CODE', sortOrder: 'DESC', size: 3 });
        expect(byCodeDesc.items.map((r) => r.code)).toEqual(['c24', 'c23', 'c22']);
        const bySqlName = await page({ sortField: 'create_time', sortOrder: 'asc', size: 2 });
        expect(bySqlName.items).toHaveLength(2);

        // Unknown fields (and anything that looks like SQL) are ignored: the default order applies.
        const injected = await page({ sortField: 'id; drop table sys_position', size: 3 });
        expect(injected.items.map((r) => r.id)).toEqual(ids.slice(0, 3));

        // Equal sort keys: ties broken by id descending, so consecutive pages never overlap or skip.
        const seen = new Set<number>();
        for (let current = 1; current <= 5; current++) {
          for (const r of (await page({ sortField: 'name', current, size: 5 })).items) seen.add(r.id);
        }
        expect(seen.size).toBe(25);
      });
    });
  });
}
