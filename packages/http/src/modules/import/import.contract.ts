/**
 * Excel import and export over HTTP: template drop-downs, preview with per-cell errors (required, dictionary,
 * reference, format, duplicates in the file and in the database, organisation outside the caller's scope),
 * the row limit (10,001 refused, 10,000 committed in one request), empty files, strategies, one shared hash per
 * commit and the first-login rehash, exports re-opened with exceljs (only asked columns, neutralised cells,
 * 46013, 46012) and the op-log export being logged itself.
 */
import type { DbType } from '@svc/kernel';
import { EXPORT_PAGE_SIZE, MAX_SHEET_COLUMNS, USER_IMPORT_COLUMNS } from '@svc/modules';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, login } from '../../testing/auth.js';
import {
  grantPermissions,
  setRuntimeConfig,
  startTestServer,
  TEST_ADMIN_PASSWORD,
} from '../../testing/index.js';
import { type AdminHarness, startAdminServer, USER_PASSWORD } from '../admin/harness.contract.js';

const HEADERS = USER_IMPORT_COLUMNS.map((c) => c.header);

async function xlsx(headers: readonly string[], rows: readonly (readonly string[])[]): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Users');
  sheet.addRow([...headers]);
  for (const row of rows) sheet.addRow([...row]);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/** A row of cells in the order of {@link HEADERS}. */
function row(cells: Partial<Record<string, string>>): string[] {
  return USER_IMPORT_COLUMNS.map((c) => cells[c.key] ?? '');
}

async function readBack(res: Response): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  const out: unknown[][] = [];
  sheet?.eachRow((r) => {
    out.push((r.values as unknown[]).slice(1));
  });
  return out;
}

export function defineImportContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`Excel import and export on ${dbType} with ${cache}`, () => {
    let h: AdminHarness;
    let orgA: number;
    let orgB: number;
    let scopedToken: string;

    const preview = async (bytes: Uint8Array, token?: string, mapping?: Record<string, string>) => {
      const form = new FormData();
      form.append('file', new File([bytes], 'users.xlsx'));
      if (mapping) form.append('mapping', JSON.stringify(mapping));
      const res = await h.t.request('/api/v1/sys/user/import/preview', {
        method: 'POST',
        headers: bearer(token ?? h.admin),
        body: form,
      });
      return json(res);
    };
    const codesOf = (r: { errors: { columnKey: string; code: number }[] }) =>
      r.errors.map((e) => `${e.columnKey}:${e.code}`).sort();

    beforeAll(async () => {
      h = await startAdminServer(dbType, cache, {
        env: { Service__Import__ExportMaxRows: '10005', Service__Import__MaxFileSizeMb: '8' },
      });
      orgA = await h.org('imp-a');
      orgB = await h.org('imp-b');
      const role = await h.role(
        'imp-scoped',
        ['POST:/api/v1/sys/user/import/preview', 'POST:/api/v1/sys/user/import/commit'],
        { scopeType: 2 },
      );
      await h.user('imp-scoped-actor', { orgId: orgA, roleIds: [role] });
      await h.user('existing-one', { orgId: orgA });
      scopedToken = await h.loginAs('imp-scoped-actor');
    }, 120_000);
    afterAll(() => h?.close());

    it('answers a template whose dictionary columns offer drop-downs', async () => {
      const res = await h.t.request('/api/v1/sys/user/import/template', { headers: bearer(h.admin) });
      expect(res.status).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet('Users');
      expect(sheet?.getRow(1).values).toEqual([undefined, ...HEADERS]);
      const genderColumn = USER_IMPORT_COLUMNS.findIndex((c) => c.key === 'gender') + 1;
      const validation = sheet?.getCell(2, genderColumn).dataValidation;
      expect(validation?.type).toBe('list');
      const lists = workbook.getWorksheet('Lists');
      const labels = [1, 2, 3].map((r) => lists?.getCell(r, 1).value);
      expect(labels).toEqual(['Unknown', 'Male', 'Female']);
      // A column without a dictionary has no drop-down.
      expect(sheet?.getCell(2, 1).dataValidation).toBeUndefined();
    });

    it('previews rows with per-cell errors of every kind', async () => {
      const bytes = await xlsx(HEADERS, [
        row({ account: 'imp-ok', realName: 'Ok', orgCode: 'imp-a', gender: 'Male', email: 'ok@x.io' }),
        row({ account: 'imp-nodict', realName: 'X', orgCode: 'imp-a', gender: 'Robot' }),
        row({ account: 'imp-noref', realName: 'X', orgCode: 'nowhere', roleCodes: 'nope' }),
        row({ account: 'bad name', realName: 'X', orgCode: 'imp-a', email: 'not-mail', phone: 'abc' }),
        row({ account: 'IMP-OK', realName: 'Dup', orgCode: 'imp-a' }),
        row({ account: 'existing-one', realName: 'Db', orgCode: 'imp-a' }),
        row({ account: '', realName: '', orgCode: 'imp-a' }),
      ]);
      const res = await preview(bytes);
      expect(res.code).toBe(0);
      expect(res.data.total).toBe(7);
      expect(res.data.columnErrors).toEqual([]);
      const rows = res.data.rows;
      expect(codesOf(rows[0])).toEqual([]);
      expect(rows[0].cells).toMatchObject({ account: 'imp-ok', gender: 'Male' });
      expect(codesOf(rows[1])).toEqual(['gender:46006']);
      expect(codesOf(rows[2])).toEqual(['orgCode:46007', 'roleCodes:46007']);
      expect(codesOf(rows[3])).toEqual(['account:46008', 'email:46008', 'phone:46008']);
      expect(codesOf(rows[4])).toEqual(['account:46009']);
      expect(codesOf(rows[5])).toEqual(['account:46010']);
      expect(codesOf(rows[6])).toEqual(['account:46005', 'realName:46005']);
      expect(res.data.errorRows).toBe(6);
    });

    it('names a missing required column (46004) and applies an explicit mapping', async () => {
      const noOrg = await xlsx(['Account', 'Real name'], [['a1', 'A']]);
      const res = await preview(noOrg);
      expect(res.data.columnErrors).toEqual([{ columnKey: 'orgCode', code: 46004 }]);
      const mapped = await xlsx(['Login', 'Name', 'Dept'], [['imp-mapped', 'M', 'imp-a']]);
      const ok = await preview(mapped, undefined, { Login: 'account', Name: 'realName', Dept: 'orgCode' });
      expect(ok.data.columnErrors).toEqual([]);
      expect(ok.data.mapping).toEqual({ Login: 'account', Name: 'realName', Dept: 'orgCode' });
      expect(codesOf(ok.data.rows[0])).toEqual([]);
      expect((await preview(await xlsx(HEADERS, []))).code).toBe(46002);
      expect((await preview(new TextEncoder().encode('not a zip'))).code).toBe(48000);
      const form = new FormData();
      form.append('file', new File([new Uint8Array(1)], 'u.xlsx'));
      form.append('mapping', '{oops');
      const bad = await h.t.request('/api/v1/sys/user/import/preview', {
        method: 'POST',
        headers: bearer(h.admin),
        body: form,
      });
      expect(bad.status).toBeLessThan(500);
    });

    it('maps no column from a header named like an object property (constructor, toString)', async () => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Users');
      sheet.addRow([...HEADERS, 'constructor', 'toString']);
      sheet.addRow([...row({ account: 'imp-proto', realName: 'P', orgCode: 'imp-a' }), 'x', '']);
      // A cell without a value under `toString`: no column reads it, so it is no error of the row.
      sheet.getCell(2, HEADERS.length + 2).value = { formula: 'CONCAT("a","b")' } as ExcelJS.CellValue;
      const bytes = new Uint8Array(await workbook.xlsx.writeBuffer());
      for (const mapping of [undefined, { Account: 'account' }]) {
        const res = await preview(bytes, undefined, mapping);
        expect(res.code).toBe(0);
        expect(Object.keys(res.data.rows[0].cells).sort()).toEqual(
          USER_IMPORT_COLUMNS.map((c) => c.key).sort(),
        );
        expect(res.data.rows[0].errors).toEqual([]);
        expect(res.data.errorRows).toBe(0);
      }
    });

    it('applies a mapping entry for a header named __proto__', async () => {
      const headers = HEADERS.map((h, i) => (USER_IMPORT_COLUMNS[i]?.key === 'account' ? '__proto__' : h));
      const bytes = await xlsx(headers, [row({ account: 'imp-dunder', realName: 'D', orgCode: 'imp-a' })]);
      // A computed key is an own property, so JSON.stringify sends it as the client would.
      const res = await preview(bytes, undefined, { ['__proto__']: 'account' });
      expect(res.code).toBe(0);
      expect(res.data.rows[0].cells.account).toBe('imp-dunder');
      expect(res.data.rows[0].errors).toEqual([]);
      expect(Object.getOwnPropertyDescriptor(res.data.mapping, '__proto__')?.value).toBe('account');
    });

    it('refuses an organisation outside the caller scope (46011), per row', async () => {
      const bytes = await xlsx(HEADERS, [
        row({ account: 'imp-in', realName: 'In', orgCode: 'imp-a' }),
        row({ account: 'imp-out', realName: 'Out', orgCode: 'imp-b' }),
      ]);
      const res = await preview(bytes, scopedToken);
      expect(res.code).toBe(0);
      expect(codesOf(res.data.rows[0])).toEqual([]);
      expect(codesOf(res.data.rows[1])).toEqual(['orgCode:46011']);
      // Commit through JSON cannot get round it either: nothing is written.
      const commit = await h.call('POST', '/api/v1/sys/user/import/commit', {
        token: scopedToken,
        json: { rows: res.data.rows, strategy: 0 },
      });
      expect(commit.body.data).toMatchObject({ inserted: 0, failed: 1 });
      expect(commit.body.data.failures[0].errors).toEqual([{ columnKey: 'orgCode', code: 46011 }]);
      const page = await h.ok('GET', '/api/v1/sys/user/page?account=imp-in');
      expect(page.total).toBe(0);
    });

    it('refuses a role that would see beyond the caller scope (41005), per row; a skipped account is not failed', async () => {
      const held = ['POST:/api/v1/sys/user/import/preview'];
      await h.role('imp-wide', held, { scopeType: 1 });
      await h.role('imp-own', held, { scopeType: 2 });
      const bytes = await xlsx(HEADERS, [
        row({ account: 'imp-wide-1', realName: 'Wide', orgCode: 'imp-a', roleCodes: 'imp-wide' }),
        row({ account: 'imp-own-1', realName: 'Own', orgCode: 'imp-a', roleCodes: 'imp-own' }),
      ]);
      const res = await preview(bytes, scopedToken);
      expect(codesOf(res.data.rows[0])).toEqual(['roleCodes:41005']);
      expect(codesOf(res.data.rows[1])).toEqual([]);
      const commit = await h.call('POST', '/api/v1/sys/user/import/commit', {
        token: scopedToken,
        json: { rows: res.data.rows, strategy: 0 },
      });
      expect(commit.body.data).toMatchObject({ inserted: 0, failed: 1 });
      expect((await h.ok('GET', '/api/v1/sys/user/page?account=imp-wide-1')).total).toBe(0);
      // An existing account: skipping it writes nothing, so the role it names does not matter; overwriting fails.
      const existing = {
        index: 1,
        cells: { account: 'existing-one', realName: 'E', orgCode: 'imp-a', roleCodes: 'imp-wide' },
      };
      const skip = await h.call('POST', '/api/v1/sys/user/import/commit', {
        token: scopedToken,
        json: { rows: [existing, { index: 2, cells: res.data.rows[1].cells }], strategy: 0 },
      });
      expect(skip.body.data).toMatchObject({ inserted: 1, skipped: 1, failed: 0 });
      const over = await h.call('POST', '/api/v1/sys/user/import/commit', {
        token: scopedToken,
        json: { rows: [existing], strategy: 1 },
      });
      expect(over.body.data).toMatchObject({ updated: 0, failed: 1 });
      expect(over.body.data.failures[0].errors).toContainEqual({
        columnKey: 'roleCodes',
        code: 41005,
        args: { reason: 'data-scope' },
      });
      const user = (await h.ok('GET', '/api/v1/sys/user/page?account=existing-one')).items[0];
      expect(user.roleIds).toEqual([]);
      // Nor overwrite someone who already holds such a role (given by the super admin): that is acting as them.
      const wideId = (await h.ok('GET', '/api/v1/sys/role/page?code=imp-wide')).items[0].id;
      await h.user('imp-wide-holder', { orgId: orgA, roleIds: [wideId] });
      const holder = {
        index: 1,
        cells: { account: 'imp-wide-holder', realName: 'Renamed', orgCode: 'imp-a' },
      };
      const taken = await h.call('POST', '/api/v1/sys/user/import/commit', {
        token: scopedToken,
        json: { rows: [holder], strategy: 1 },
      });
      expect(taken.body.data).toMatchObject({ updated: 0, failed: 1 });
      expect(taken.body.data.failures[0].errors).toContainEqual({
        columnKey: 'account',
        code: 41005,
        args: { reason: 'data-scope' },
      });
    });

    it('refuses a sheet that spans more columns than an import reads (48000), before it takes the heap', async () => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Users');
      sheet.addRow([...HEADERS]);
      for (let r = 2; r <= 50; r += 1) {
        sheet.getRow(r).values = row({ account: `imp-wide-${r}`, realName: 'W', orgCode: 'imp-a' });
        sheet.getCell(r, MAX_SHEET_COLUMNS + 1).value = 'far';
      }
      const res = await preview(new Uint8Array(await workbook.xlsx.writeBuffer()));
      expect(res.code).toBe(48000);
      expect(JSON.stringify(res.args)).toContain(`beyond column ${MAX_SHEET_COLUMNS}`);
      // The last column a sheet may use is read.
      sheet.eachRow((r) => {
        r.getCell(MAX_SHEET_COLUMNS + 1).value = null;
        r.getCell(MAX_SHEET_COLUMNS).value = 'edge';
      });
      expect((await preview(new Uint8Array(await workbook.xlsx.writeBuffer()))).code).toBe(0);
    });

    it('fails a cell the workbook holds no value for (46008), never imports it as text', async () => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Users');
      sheet.addRow([...HEADERS]);
      sheet.addRow(row({ account: 'imp-formula', orgCode: 'imp-a' }));
      sheet.addRow(row({ account: 'imp-cached', orgCode: 'imp-a' }));
      const realName = USER_IMPORT_COLUMNS.findIndex((c) => c.key === 'realName') + 1;
      // Saved without a result (a generator that never calculated), and with one.
      sheet.getCell(2, realName).value = { formula: 'CONCAT("a","b")' } as ExcelJS.CellValue;
      sheet.getCell(3, realName).value = { formula: 'CONCAT("a","b")', result: 'ab' } as ExcelJS.CellValue;
      const res = await preview(new Uint8Array(await workbook.xlsx.writeBuffer()));
      expect(res.code).toBe(0);
      expect(res.data.rows[0].errors).toEqual([
        { columnKey: 'realName', code: 46008, args: { reason: 'unreadable' } },
      ]);
      expect(res.data.rows[0].cells.realName).toBe('');
      expect(res.data.rows[1]).toMatchObject({ errors: [], cells: { realName: 'ab' } });
    });

    it('fails the rows whose account was taken between the check and the write (46010), never a 500', async () => {
      const users = h.t.server.database.repos.users;
      const importBatch = users.importBatch;
      // An administrator creates one of the accounts after the commit checked them and before it writes.
      users.importBatch = async (batch) => {
        users.importBatch = importBatch;
        await h.user('imp-race-2', { orgId: orgA });
        return importBatch.call(users, batch);
      };
      try {
        const rows = [1, 2, 3].map((i) => ({
          index: i,
          cells: { account: `imp-race-${i}`, realName: 'Race', orgCode: 'imp-a' },
        }));
        const res = await h.call('POST', '/api/v1/sys/user/import/commit', { json: { rows, strategy: 2 } });
        expect(res.body.code).toBe(0);
        expect(res.body.data).toMatchObject({ inserted: 0, failed: 1 });
        expect(res.body.data.failures).toEqual([
          { index: 2, errors: [{ columnKey: 'account', code: 46010 }] },
        ]);
        // The batch went whole or not at all: only the administrator's account is there.
        expect((await h.ok('GET', '/api/v1/sys/user/page?account=imp-race-')).total).toBe(1);
      } finally {
        users.importBatch = importBatch;
      }
    });

    it('skips or overwrites an account taken between the check and the write, as Skip and Overwrite say', async () => {
      const users = h.t.server.database.repos.users;
      const importBatch = users.importBatch;
      const cases = [
        { strategy: 0, counts: { inserted: 2, updated: 0, skipped: 1 }, realName: 'imp-late0-2' },
        { strategy: 1, counts: { inserted: 2, updated: 1, skipped: 0 }, realName: 'Late' },
      ];
      for (const { strategy, counts, realName } of cases) {
        const prefix = `imp-late${strategy}-`;
        // An administrator creates one of the accounts after the commit checked them and before it writes.
        users.importBatch = async (batch) => {
          users.importBatch = importBatch;
          await h.user(`${prefix}2`, { orgId: orgA });
          return importBatch.call(users, batch);
        };
        try {
          const rows = [1, 2, 3].map((i) => ({
            index: i,
            cells: { account: `${prefix}${i}`, realName: 'Late', orgCode: 'imp-a' },
          }));
          const res = await h.call('POST', '/api/v1/sys/user/import/commit', { json: { rows, strategy } });
          expect(res.body.data, JSON.stringify(res.body)).toEqual({
            total: 3,
            ...counts,
            failed: 0,
            failures: [],
          });
          const page = await h.ok('GET', `/api/v1/sys/user/page?account=${prefix}`);
          expect(page.total).toBe(3);
          expect(page.items.find((u: { account: string }) => u.account === `${prefix}2`).realName).toBe(
            realName,
          );
        } finally {
          users.importBatch = importBatch;
        }
      }
    });

    it('writes the same new accounts committed in parallel once; the other commits fail their rows', async () => {
      const rows = Array.from({ length: 10 }, (_, i) => ({
        index: i + 1,
        cells: { account: `imp-par-${i}`, realName: 'Par', orgCode: 'imp-a' },
      }));
      const answers = await Promise.all(
        [1, 2, 3, 4].map(() =>
          h.call('POST', '/api/v1/sys/user/import/commit', { json: { rows, strategy: 2 } }),
        ),
      );
      for (const answer of answers) expect(answer.body.code, JSON.stringify(answer.body)).toBe(0);
      const inserted = answers.map((a) => a.body.data.inserted).sort();
      expect(inserted).toEqual([0, 0, 0, 10]);
      for (const answer of answers.filter((a) => a.body.data.inserted === 0)) {
        expect(answer.body.data.failed).toBe(10);
        for (const failure of answer.body.data.failures)
          expect(failure.errors).toContainEqual(
            expect.objectContaining({ columnKey: 'account', code: 46010 }),
          );
      }
      expect((await h.ok('GET', '/api/v1/sys/user/page?account=imp-par-')).total).toBe(10);
    });

    it("names an existing account's id only when the caller may see that user", async () => {
      const outside = await h.user('imp-outside', { orgId: orgB });
      const inside = await h.user('imp-inside', { orgId: orgA });
      const bytes = await xlsx(HEADERS, [
        row({ account: 'imp-outside', realName: 'O', orgCode: 'imp-a' }),
        row({ account: 'imp-inside', realName: 'I', orgCode: 'imp-a' }),
      ]);
      const res = await preview(bytes, scopedToken);
      const duplicate = (r: { errors: { code: number; args?: unknown }[] }) =>
        r.errors.find((e) => e.code === 46010);
      expect(duplicate(res.data.rows[0])).toEqual({ columnKey: 'account', code: 46010 });
      expect(JSON.stringify(res.data)).not.toContain(`"id":${outside}`);
      expect(duplicate(res.data.rows[1])).toEqual({
        columnKey: 'account',
        code: 46010,
        args: { id: inside },
      });
    });

    it('refuses 10,001 rows (46003) and commits 10,000 in one request with one shared hash', async () => {
      const many = (n: number, prefix: string) =>
        Array.from({ length: n }, (_, i) =>
          row({ account: `${prefix}${i}`, realName: `U${i}`, orgCode: 'imp-a' }),
        );
      expect((await preview(await xlsx(HEADERS, many(10_001, 'over')))).code).toBe(46003);
      const rows = many(10_000, 'bulk').map((cells, i) => ({
        index: i + 1,
        cells: Object.fromEntries(USER_IMPORT_COLUMNS.map((c, j) => [c.key, cells[j] as string])),
      }));
      const tooMany = await h.call('POST', '/api/v1/sys/user/import/validate', {
        json: { rows: [...rows, { index: 10_001, cells: { account: 'x' } }] },
      });
      expect(tooMany.body.code).toBe(46003);
      const res = await h.call('POST', '/api/v1/sys/user/import/commit', { json: { rows, strategy: 2 } });
      expect(res.body.code).toBe(0);
      expect(res.body.data).toEqual({
        total: 10_000,
        inserted: 10_000,
        updated: 0,
        skipped: 0,
        failed: 0,
        failures: [],
      });
      const page = await h.ok('GET', '/api/v1/sys/user/page?account=bulk&size=1');
      expect(page.total).toBe(10_000);
      const repos = h.t.server.deps.core.repos;
      const [a, b] = await repos.users.findLiveByAccounts(['bulk1', 'bulk2']);
      expect(a?.password).toBe(b?.password);
      expect(a?.mustChangePassword).toBe(true);
      // The first login rehashes with a salt of the account's own.
      await login(h.t, 'bulk1', USER_PASSWORD);
      const after = await repos.users.findByAccount('bulk1');
      expect(after?.password).not.toBe(b?.password);
      await login(h.t, 'bulk1', USER_PASSWORD);
    }, 300_000);

    it('exports each user once while users are deleted between its pages', async () => {
      let exported: string[] = [];
      // bulk1, bulk10-19, bulk100-199, bulk1000-1999 (the import above): two pages.
      const expected = 1 + 10 + 100 + 1000;
      const users = h.t.server.deps.core.repos.users;
      const page = users.page;
      const deleted: number[] = [];
      const stamp = { userId: h.adminId, at: new Date() };
      // As soon as the first page is read, five of its users are deleted: read by offset, the next page would start
      // five rows late, and those five live users would be missing.
      users.page = async (...args) => {
        const answer = await page(...args);
        users.page = page;
        deleted.push(...answer.items.slice(0, 5).map((u) => u.id));
        expect(await users.softDelete(deleted, stamp)).toBe(5);
        return answer;
      };
      try {
        const res = await h.t.request('/api/v1/sys/user/export?account=bulk1&columns=account', {
          headers: bearer(h.admin),
        });
        expect(res.status).toBe(200);
        const rows = (await readBack(res)).slice(1);
        expect(users.page).toBe(page);
        expect(deleted).toHaveLength(5);
        expect(rows).toHaveLength(expected);
        exported = rows.map((r) => String(r[0]));
        expect(new Set(exported).size).toBe(expected);
        // The key is no route parameter: a client cannot page the list by it.
        const listed = await h.ok('GET', `/api/v1/sys/user/page?account=bulk1&size=1&afterId=${2 ** 30}`);
        expect(listed.total).toBe(expected - 5);
      } finally {
        users.page = page;
        for (const id of deleted) await users.restore(id, stamp);
      }
      // Oldest first: the accounts in the order of their ids.
      {
        const found = await users.findLiveByAccounts(exported);
        const idOf = new Map(found.map((u) => [u.account, u.id]));
        const ids = exported.map((a) => idOf.get(a) as number);
        expect(ids).toEqual([...ids].sort((a, b) => a - b));
      }
    }, 120_000);

    it('applies the strategies to existing accounts and writes nothing when a row fails', async () => {
      const cells = (account: string, realName: string) => ({ account, realName, orgCode: 'imp-a' });
      const rows = [
        { index: 1, cells: cells('existing-one', 'Renamed') },
        { index: 2, cells: cells('strategy-new', 'New') },
      ];
      const error = await h.call('POST', '/api/v1/sys/user/import/commit', { json: { rows, strategy: 2 } });
      expect(error.body.data).toMatchObject({ inserted: 0, failed: 1 });
      expect(error.body.data.failures[0].errors).toEqual([
        { columnKey: 'account', code: 46010, args: expect.any(Object) },
      ]);
      expect((await h.ok('GET', '/api/v1/sys/user/page?account=strategy-new')).total).toBe(0);
      const skip = await h.call('POST', '/api/v1/sys/user/import/commit', { json: { rows, strategy: 0 } });
      expect(skip.body.data).toMatchObject({ inserted: 1, updated: 0, skipped: 1, failed: 0 });
      const over = await h.call('POST', '/api/v1/sys/user/import/commit', {
        json: { rows: [rows[0], { index: 3, cells: cells('strategy-new2', 'N2') }], strategy: 1 },
      });
      expect(over.body.data).toMatchObject({ inserted: 1, updated: 1, skipped: 0, failed: 0 });
      const renamed = await h.ok('GET', '/api/v1/sys/user/page?account=existing-one');
      expect(renamed.items[0].realName).toBe('Renamed');
      // The scoped actor may not overwrite the super admin, who is outside their scope: a taken name, nothing
      // more (42007 would tell whose account it is, contract §11).
      const admin = await h.call('POST', '/api/v1/sys/user/import/commit', {
        token: scopedToken,
        json: { rows: [{ index: 1, cells: cells('superAdmin', 'Pwned') }], strategy: 1 },
      });
      expect(admin.body.data.failed).toBe(1);
      expect(admin.body.data.failures[0].errors).toEqual([{ columnKey: 'account', code: 46010 }]);
      // Nor a user who holds codes the caller lacks (the rank rule of admin update), nor grant such a role.
      const strong = await h.role('imp-strong', ['GET:/api/v1/sys/role/page']);
      await h.user('imp-strong-user', { orgId: orgA, roleIds: [strong] });
      const rank = await h.call('POST', '/api/v1/sys/user/import/commit', {
        token: scopedToken,
        json: {
          rows: [
            { index: 1, cells: cells('imp-strong-user', 'Taken') },
            { index: 2, cells: { ...cells('imp-escalate', 'E'), roleCodes: 'imp-strong' } },
          ],
          strategy: 1,
        },
      });
      expect(rank.body.data).toMatchObject({ inserted: 0, updated: 0, failed: 2 });
      expect(
        rank.body.data.failures.map((f: { errors: { columnKey: string; code: number }[] }) =>
          f.errors.map((e) => `${e.columnKey}:${e.code}`),
        ),
      ).toEqual([['account:46010', 'account:41001'], ['roleCodes:41001']]);
      // Nobody overwrites their own account through an import.
      const self = await h.call('POST', '/api/v1/sys/user/import/commit', {
        json: { rows: [{ index: 1, cells: cells('superAdmin', 'Me') }], strategy: 1 },
      });
      expect(self.body.data.failures[0].errors.map((e: { code: number }) => e.code)).toContain(42029);
    });

    it('overwrites an existing account the name rules of today would refuse; refuses such a name for a new one', async () => {
      // Created before the single-script rule: a Latin name with a Cyrillic letter.
      await grantPermissions(h.t, { account: 'legacy\u0441mix', permissions: [], orgId: orgA });
      const over = await h.call('POST', '/api/v1/sys/user/import/commit', {
        json: {
          rows: [{ index: 1, cells: { account: 'legacy\u0441mix', realName: 'Kept', orgCode: 'imp-a' } }],
          strategy: 1,
        },
      });
      expect(over.body.data).toMatchObject({ updated: 1, failed: 0 });
      const fresh = await h.call('POST', '/api/v1/sys/user/import/commit', {
        json: {
          rows: [{ index: 1, cells: { account: 'fresh\u0441mix', realName: 'New', orgCode: 'imp-a' } }],
          strategy: 1,
        },
      });
      expect(fresh.body.data).toMatchObject({ inserted: 0, failed: 1 });
    });

    it('reads a full-width copy of an existing account as that account (46010 at validate, updated with Overwrite)', async () => {
      await grantPermissions(h.t, { account: 'widecopy', permissions: [], orgId: orgA });
      const wide = '\uff57\uff49\uff44\uff45\uff43\uff4f\uff50\uff59'; // "widecopy" in full-width letters
      const row = { index: 1, cells: { account: wide, realName: 'Wide', orgCode: 'imp-a' } };
      const checked = await h.call('POST', '/api/v1/sys/user/import/validate', { json: { rows: [row] } });
      expect(checked.body.data.rows[0].errors).toEqual([
        expect.objectContaining({ columnKey: 'account', code: 46010 }),
      ]);
      const over = await h.call('POST', '/api/v1/sys/user/import/commit', {
        json: { rows: [row], strategy: 1 },
      });
      expect(over.body.data).toMatchObject({ inserted: 0, updated: 1, failed: 0 });
    });

    it('an overwrite that disables an account signs it out at once, as the enable route does', async () => {
      const viewer = await h.role('imp-viewer', ['GET:/api/v1/sys/user/page']);
      const id = await h.user('imp-disabled', { orgId: orgA, roleIds: [viewer] });
      const token = await h.loginAs('imp-disabled');
      expect((await h.call('GET', '/api/v1/sys/user/page', { token })).status).toBe(200);
      const cells = { account: 'imp-disabled', realName: 'Off', orgCode: 'imp-a', enabled: 'Disabled' };
      const over = await h.call('POST', '/api/v1/sys/user/import/commit', {
        json: { rows: [{ index: 1, cells }], strategy: 1 },
      });
      expect(over.body.data).toMatchObject({ updated: 1, failed: 0 });
      expect((await h.ok('GET', `/api/v1/sys/user/${id}`)).enabled).toBe(false);
      expect((await h.call('GET', '/api/v1/ping', { token })).status).toBe(401);
      expect((await h.call('GET', '/api/v1/sys/user/page', { token })).status).toBe(401);
      expect((await h.ok('GET', `/api/v1/sys/session/online?userId=${id}`)).total).toBe(0);
    });

    it('needs re-authentication for a commit while second factors are on, as a single user create does', async () => {
      await setRuntimeConfig(h.t, 'sys.security.totp.enabled', 'true');
      try {
        const token = await login(h.t, 'superAdmin', TEST_ADMIN_PASSWORD);
        const rows = [{ index: 1, cells: { account: 'reauth-import', realName: 'R', orgCode: 'imp-a' } }];
        const refused = await h.call('POST', '/api/v1/sys/user/import/commit', {
          token: token.accessToken,
          json: { rows, strategy: 2 },
        });
        expect(refused.status).toBe(403);
        expect(refused.body.code).toBe(40024);
        expect((await h.ok('GET', '/api/v1/sys/user/page?account=reauth-import')).total).toBe(0);
        // Checking the rows writes nothing and stays open.
        const checked = await h.call('POST', '/api/v1/sys/user/import/validate', {
          token: token.accessToken,
          json: { rows },
        });
        expect(checked.body.code).toBe(0);
        await h.ok('POST', '/api/v1/auth/reauth', {
          token: token.accessToken,
          json: { method: 'password', password: TEST_ADMIN_PASSWORD },
        });
        const done = await h.call('POST', '/api/v1/sys/user/import/commit', {
          token: token.accessToken,
          json: { rows, strategy: 2 },
        });
        expect(done.body.data).toMatchObject({ inserted: 1 });
      } finally {
        await setRuntimeConfig(h.t, 'sys.security.totp.enabled', 'false');
      }
    });

    it('answers an error report with an errors column', async () => {
      const res = await h.t.request('/api/v1/sys/user/import/error-report', {
        method: 'POST',
        headers: { ...bearer(h.admin), 'content-type': 'application/json' },
        body: JSON.stringify({
          rows: [
            {
              index: 4,
              cells: { account: '=HYPERLINK("x")' },
              errors: [{ columnKey: 'gender', code: 46006 }],
            },
            // The error's column key is the client's text too.
            { index: 5, cells: { account: 'x' }, errors: [{ columnKey: '=HYPERLINK("y")', code: 46006 }] },
          ],
        }),
      });
      expect(res.status).toBe(200);
      const rows = await readBack(res);
      expect(String(rows[2]?.at(-1))).toMatch(/^'=HYPERLINK\("y"\): 46006/);
      expect(rows[0]?.[0]).toBe('Row');
      expect(rows[0]?.at(-1)).toBe('Errors');
      expect(rows[1]?.[0]).toBe(4);
      expect(rows[1]?.[1]).toBe(`'=HYPERLINK("x")`);
      expect(String(rows[1]?.at(-1))).toContain('46006');
    });

    it('exports only the asked columns, neutralising formula cells', async () => {
      for (const [account, name] of [
        ['exp-eq', '=1+2'],
        ['exp-plus', '+SUM(A1)'],
        ['exp-at', '@cmd'],
        ['exp-tab', '\t=evil'],
        ['exp-minus', ' -2+3'],
      ])
        await h.ok('POST', '/api/v1/sys/user', { json: { account, realName: name, orgId: orgA } });
      const res = await h.t.request('/api/v1/sys/user/export?account=exp-&columns=account,realName', {
        headers: bearer(h.admin),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('spreadsheetml');
      const rows = await readBack(res);
      expect(rows[0]).toEqual(['Account', 'Real name']);
      const byAccount = Object.fromEntries(rows.slice(1).map((r) => [r[0], r[1]]));
      expect(byAccount).toEqual({
        'exp-eq': "'=1+2",
        'exp-plus': "'+SUM(A1)",
        'exp-at': "'@cmd",
        // Admin create trims names; leading whitespace is covered by cells.test.ts.
        'exp-tab': "'=evil",
        'exp-minus': "'-2+3",
      });
      const unknown = await h.call('GET', '/api/v1/sys/user/export?columns=account,password');
      expect(unknown.body).toMatchObject({ code: 46013, args: { columns: ['password'] } });
    }, 120_000);

    it('refuses an export beyond the row limit (46012) and logs the operation-log export itself', async () => {
      // More than 10,005 users exist by now (the bulk import and the rest).
      const over = await h.call('GET', '/api/v1/sys/user/export?columns=account');
      expect(over.body).toMatchObject({ code: 46012, args: { max: 10_005 } });
      const res = await h.t.request('/api/v1/sys/log/op/export?columns=path,httpMethod', {
        headers: bearer(h.admin),
      });
      expect(res.status).toBe(200);
      const rows = await readBack(res);
      expect(rows[0]).toEqual(['Path', 'Method']);
      expect(rows.some((r) => r[0] === '/api/v1/sys/user/import/commit')).toBe(true);
      await h.t.server.deps.core.opLog.drain(5000);
      const page = await h.ok('GET', '/api/v1/sys/log/op/page?size=50');
      expect(page.items.some((r: { path: string }) => r.path === '/api/v1/sys/log/op/export')).toBe(true);
      // A commit is logged with its size, not with its rows of personal data.
      const commits = page.items.filter((r: { path: string }) => r.path === '/api/v1/sys/user/import/commit');
      expect(commits.length).toBeGreaterThan(0);
      for (const row of commits) {
        expect(row.paramJson).toMatch(/"rows":\d+/);
        expect(row.paramJson).not.toContain('cells');
      }
    }, 300_000);

    it('exports each operation-log row once while rows are written between its pages', async () => {
      const opLogs = h.t.server.deps.core.repos.opLogs;
      await h.t.server.deps.core.opLog.drain(5000);
      const row = (path: string, success = true) => ({
        title: 'Export paging',
        httpMethod: 'POST',
        path,
        paramJson: null,
        resultCode: success ? 0 : 40001,
        success,
        elapsedMs: 1,
        operatorId: null,
        operatorName: 'export-paging',
        ip: null,
        userAgent: null,
        traceId: null,
        createTime: Date.now(),
      });
      // Three pages' worth, then the log as the export starts.
      await opLogs.insertMany(
        Array.from({ length: 2 * EXPORT_PAGE_SIZE + 10 }, (_, i) => row(`/paging/${i}`, i % 2 === 0)),
      );
      const before = await opLogs.count();
      // Five rows are written as soon as the first page has been read (as this export's own row is, at some point):
      // read by offset, the next page would start five rows early and repeat them.
      const page = opLogs.page;
      opLogs.page = async (...args) => {
        const answer = await page(...args);
        opLogs.page = page;
        await opLogs.insertMany(Array.from({ length: 5 }, (_, i) => row(`/paging/late-${i}`)));
        return answer;
      };
      try {
        const res = await h.t.request('/api/v1/sys/log/op/export?columns=id,path', {
          headers: bearer(h.admin),
        });
        expect(res.status).toBe(200);
        const ids = (await readBack(res)).slice(1).map((r) => Number(r[0]));
        expect(opLogs.page).toBe(page);
        expect(ids.length).toBe(before);
        expect(new Set(ids).size).toBe(ids.length);
        // Newest first, the rows there were when it started.
        expect(ids).toEqual([...ids].sort((a, b) => b - a));
      } finally {
        opLogs.page = page;
      }
      // The filter holds on the later pages as on the first (more than a page of failed rows).
      const failed = (await opLogs.page({ success: false, size: 1 })).total;
      expect(failed).toBeGreaterThan(EXPORT_PAGE_SIZE);
      const res = await h.t.request('/api/v1/sys/log/op/export?success=false&columns=id,success', {
        headers: bearer(h.admin),
      });
      const rows = (await readBack(res)).slice(1);
      expect(rows).toHaveLength(failed);
      expect(rows.filter((r) => r[1] !== false)).toEqual([]);
    }, 120_000);

    it('gives the import routes their own body limit, and only them', async () => {
      // 8 MiB here: a 2 MiB validate body passes the 1 MiB JSON limit of other routes, 9 MiB does not.
      const cells = { account: 'x'.repeat(60), realName: 'y'.repeat(60), remark: 'z'.repeat(400) };
      const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ index: i + 1, cells }));
      const mid = await h.call('POST', '/api/v1/sys/user/import/validate', { json: { rows: rows(4000) } });
      expect(mid.status).toBe(200);
      expect(mid.body.code).toBe(0);
      const big = await h.call('POST', '/api/v1/sys/user/import/validate', { json: { rows: rows(17_000) } });
      expect(big.status).toBe(413);
      expect(big.body).toMatchObject({ code: 48002, args: { maxBytes: 8 * 1024 * 1024 } });
      const other = await h.call('POST', '/api/v1/sys/role', {
        json: { name: 'r', code: 'r', remark: 'x'.repeat(2_000_000) },
      });
      expect(other.status).toBe(413);
    }, 120_000);
  });

  describe(`Excel import switched off or unconfigured on ${dbType}`, () => {
    it('refuses a commit that creates users without a default initial password (46014)', async () => {
      const t = await startTestServer({
        dbType,
        cache,
        env: { Service__Security__RateLimit__Enabled: 'false' },
      });
      try {
        const token = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
        const res = await json(
          await t.request('/api/v1/sys/user/import/commit', {
            method: 'POST',
            headers: bearer(token),
            json: {
              rows: [{ index: 1, cells: { account: 'np', realName: 'N', orgCode: 'root' } }],
              strategy: 0,
            },
          }),
        );
        expect(res.code).toBe(46014);
        const page = await json(
          await t.request('/api/v1/sys/user/page?account=np', { headers: bearer(token) }),
        );
        expect(page.data.total).toBe(0);
      } finally {
        await t.close();
      }
    }, 120_000);

    it('takes the initial password from the commit when none is configured, and imports its own export again', async () => {
      const t = await startTestServer({
        dbType,
        cache,
        env: { Service__Security__RateLimit__Enabled: 'false' },
      });
      try {
        const token = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
        const call = async (method: string, path: string, body?: unknown) =>
          json(await t.request(path, { method, headers: bearer(token), ...(body ? { json: body } : {}) }));
        const orgId = (await call('POST', '/api/v1/sys/org', { name: 'Round', code: 'rt-org' })).data.id;
        const positionId = (await call('POST', '/api/v1/sys/position', { name: 'Clerk', code: 'rt-pos' }))
          .data.id;
        const roleIds = [];
        for (const code of ['rt-r1', 'rt-r2'])
          roleIds.push((await call('POST', '/api/v1/sys/role', { name: code, code })).data.id);
        const rows = [{ index: 1, cells: { account: 'rt-first', realName: 'First', orgCode: 'rt-org' } }];
        // Neither configured nor sent: 46014; sent but too weak for the policy: 42019; nothing is written.
        expect((await call('POST', '/api/v1/sys/user/import/commit', { rows, strategy: 2 })).code).toBe(
          46014,
        );
        const weak = await call('POST', '/api/v1/sys/user/import/commit', {
          rows,
          strategy: 2,
          initialPassword: 'abc',
        });
        expect(weak.code).toBe(42019);
        const initialPassword = 'Import-Initial-9x';
        const done = await call('POST', '/api/v1/sys/user/import/commit', {
          rows,
          strategy: 2,
          initialPassword,
        });
        expect(done.data).toMatchObject({ inserted: 1, failed: 0 });
        const first = await login(t, 'rt-first', initialPassword);
        expect(first.accessToken).toBeTruthy();

        // An export holds codes and labels, in the template's columns: imported again, it gives the same users.
        const created = await call('POST', '/api/v1/sys/user', {
          account: 'rt-second',
          realName: 'Second',
          nickName: 'Nick',
          orgId,
          positionId,
          roleIds,
          phone: '+49 30-1234567',
          email: 'second@example.com',
          gender: 2,
          enabled: false,
          remark: 'kept',
        });
        expect(created.code).toBe(0);
        const before = (await call('GET', `/api/v1/sys/user/${created.data.id}`)).data;
        const res = await t.request('/api/v1/sys/user/export?account=rt-second', { headers: bearer(token) });
        expect(res.status).toBe(200);
        const bytes = new Uint8Array(await res.arrayBuffer());
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load(Buffer.from(bytes) as unknown as ArrayBuffer);
        const sheet = workbook.worksheets[0];
        if (!sheet) throw new Error('the export has no sheet');
        expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(HEADERS);
        // The phone's leading + is written with a ' (a formula start), and read back without it.
        expect((sheet.getRow(2).values as unknown[]).slice(1)).toEqual([
          'rt-second',
          'Second',
          'Nick',
          'rt-org',
          'rt-pos',
          'rt-r1,rt-r2',
          "'+49 30-1234567",
          'second@example.com',
          'Female',
          'Disabled',
          'kept',
        ]);
        expect((await call('DELETE', `/api/v1/sys/user/${created.data.id}`)).code).toBe(0);
        const form = new FormData();
        form.append('file', new File([bytes], 'users.xlsx'));
        const preview = await json(
          await t.request('/api/v1/sys/user/import/preview', {
            method: 'POST',
            headers: bearer(token),
            body: form,
          }),
        );
        expect(preview.data.errorRows).toBe(0);
        const again = await call('POST', '/api/v1/sys/user/import/commit', {
          rows: preview.data.rows,
          strategy: 2,
          initialPassword,
        });
        expect(again.data).toMatchObject({ inserted: 1, failed: 0 });
        const page = (await call('GET', '/api/v1/sys/user/page?account=rt-second')).data;
        const after = (await call('GET', `/api/v1/sys/user/${page.items[0].id}`)).data;
        const same = (u: Record<string, unknown>) => {
          const {
            id: _id,
            createTime: _c,
            updateTime: _u,
            lastLoginTime: _l,
            mustChangePassword: _m,
            ...rest
          } = u;
          return { ...rest, roleIds: [...(rest.roleIds as number[])].sort((a, b) => a - b) };
        };
        expect(same(after)).toEqual(same(before));
      } finally {
        await t.close();
      }
    }, 120_000);

    it('removes every import and export route when the Import module is disabled', async () => {
      const t = await startTestServer({
        dbType,
        cache,
        env: { Service__Api__DisabledModules__0: 'Import', Service__Security__RateLimit__Enabled: 'false' },
      });
      try {
        const token = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
        for (const path of ['/api/v1/sys/user/import/template', '/api/v1/sys/log/op/export'])
          expect((await t.request(path, { headers: bearer(token) })).status).toBe(404);
        // `/sys/user/export` is then an `{id}` that is not a number.
        const exp = await json(await t.request('/api/v1/sys/user/export', { headers: bearer(token) }));
        expect(exp.code).not.toBe(0);
        const doc = await json(await t.request('/openapi/v1.json'));
        expect(Object.keys(doc.paths).filter((p) => p.includes('/import/') || p.endsWith('/export'))).toEqual(
          [],
        );
      } finally {
        await t.close();
      }
    }, 120_000);
  });
}
