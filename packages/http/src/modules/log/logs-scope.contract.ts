/**
 * Operation and login logs follow the data scope of the user they are about (contract §4, as files follow their
 * uploader, §10): the operator of an operation-log row, the account of a login-log row. Organisations A, its child
 * A1, and B; one caller per scope type (Self, own org, org and children, a Custom list naming B, All), an
 * organisation-less caller whose org scope cannot be resolved, and operators in A1 and B. Each caller's page and
 * export answer exactly the rows of users inside their scope; rows with no user (an unbound API key's operation,
 * an attempt on an unknown account) only All and the super admin see; filters apply within the scope; a user
 * moved to another organisation takes their rows' visibility along; the dashboard's login trend counts the rows
 * the login-log page shows. Before the scoping, every caller holding the codes saw every row. Exception rows
 * belong to no user: only All and the super admin read them, every other caller an empty page (before, every
 * holder of the code read them all). Clearing a log (operation, login or exception) takes every row, so only a
 * caller of scope All may.
 */
import type { NewOpLog } from '@svc/data';
import type { DbType } from '@svc/kernel';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../testing/auth.js';
import { type AdminHarness, startAdminServer } from '../admin/harness.contract.js';

const LOG_CODES = [
  'GET:/api/v1/sys/log/op/page',
  'GET:/api/v1/sys/log/login/page',
  'GET:/api/v1/sys/log/op/export',
  'DELETE:/api/v1/sys/log/op',
  'DELETE:/api/v1/sys/log/login',
  'GET:/api/v1/sys/log/exception/page',
  'DELETE:/api/v1/sys/log/exception',
];

/** A clock pinned mid-day, so the dashboard's seven UTC days hold every row the test writes. */
const NOW = new Date('2026-05-12T12:00:00.000Z');

/** The accounts of the suite: callers by scope type and plain operators. */
const ACCOUNTS = ['self', 'own', 'tree', 'custom', 'all', 'child', 'b', 'orgless'] as const;
type Who = (typeof ACCOUNTS)[number];
const account = (who: Who) => `lsc-${who}`;
/** Operation-log paths of the suite start with this (other rows are the set-up's own writes). */
const PATH = '/lsc/';

export function defineLogsScopeContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`operation and login logs in their user's data scope on ${dbType} with ${cache}`, () => {
    let h: AdminHarness;
    const id = {} as Record<Who, number>;
    const token = {} as Record<Who, string>;
    let orgA: number;

    /** Who the suite's operation-log rows of a page are about (`${who}` or `nobody`), with their result. */
    const opRows = async (caller: string, query = '') => {
      const page = await h.ok('GET', `/api/v1/sys/log/op/page?size=200${query}`, { token: caller });
      return (page.items as { path: string; success: boolean }[])
        .filter((r) => r.path.startsWith(PATH))
        .map((r) => r.path.slice(PATH.length))
        .sort();
    };
    /** The suite's accounts among a login-log page's rows, one entry per row. */
    const loginRows = async (caller: string, query = '') => {
      const page = await h.ok('GET', `/api/v1/sys/log/login/page?size=200${query}`, { token: caller });
      return (page.items as { account: string }[])
        .map((r) => r.account)
        .filter((a) => a.startsWith('lsc-'))
        .sort();
    };
    const ops = (...whos: string[]) => whos.flatMap((w) => [`${w}/fail`, `${w}/ok`]).sort();
    const logins = (...whos: Who[]) => whos.map(account).sort();
    const exported = async (caller: string) => {
      const res = await h.t.request('/api/v1/sys/log/op/export?columns=path', { headers: bearer(caller) });
      expect(res.status).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as ArrayBuffer);
      const paths: string[] = [];
      workbook.worksheets[0]?.eachRow((r) => {
        const path = (r.values as unknown[])[1];
        if (typeof path === 'string' && path.startsWith(PATH)) paths.push(path.slice(PATH.length));
      });
      return paths.sort();
    };

    beforeAll(async () => {
      h = await startAdminServer(dbType, cache, { now: () => NOW });
      orgA = await h.org('lsc-a');
      const orgA1 = await h.org('lsc-a1', orgA);
      const orgB = await h.org('lsc-b');
      const role = (code: string, scopeType: number, customOrgIds: number[] = []) =>
        h.role(code, LOG_CODES, { scopeType, customOrgIds });
      const self = await role('lsc_self', 4);
      const own = await role('lsc_own', 2);
      const roles: Record<Who, [number, number | null]> = {
        self: [self, orgA],
        own: [own, orgA],
        tree: [await role('lsc_tree', 3), orgA],
        custom: [await role('lsc_custom', 5, [orgB]), orgA],
        all: [await role('lsc_all', 1), orgB],
        child: [self, orgA1],
        b: [self, orgB],
        orgless: [own, null],
      };
      for (const who of ACCOUNTS) {
        const [roleId, orgId] = roles[who];
        id[who] = await h.user(account(who), { orgId, roleIds: [roleId] });
        // One login-log row each, with the user's id.
        token[who] = await h.loginAs(account(who));
      }
      // An attempt on an account that does not exist: a login-log row without a user.
      const unknown = await h.t.request('/api/v1/auth/login', {
        json: { account: 'lsc-unknown', password: 'Wrong#Pass1' },
      });
      expect(unknown.status).toBeLessThan(500);
      // Operation-log rows: a success and a failure per user, and one of an API key bound to nobody.
      const op = (path: string, operatorId: number | null, success: boolean): NewOpLog => ({
        title: path,
        httpMethod: 'POST',
        path: `${PATH}${path}`,
        paramJson: null,
        resultCode: success ? 0 : 48000,
        success,
        elapsedMs: 1,
        operatorId,
        operatorName: null,
        ip: null,
        userAgent: null,
        traceId: null,
        createTime: NOW,
      });
      await h.t.server.database.repos.opLogs.insertMany([
        ...ACCOUNTS.flatMap((who) => [op(`${who}/ok`, id[who], true), op(`${who}/fail`, id[who], false)]),
        op('nobody/ok', null, true),
        op('nobody/fail', null, false),
      ]);
    });
    afterAll(() => h?.close());

    it('shows a Self caller only their own rows', async () => {
      expect(await opRows(token.self)).toEqual(ops('self'));
      expect(await loginRows(token.self)).toEqual(logins('self'));
      expect(await exported(token.self)).toEqual(ops('self'));
    });

    it('shows an own-organisation caller its organisation’s users and not a child’s or another’s', async () => {
      expect(await opRows(token.own)).toEqual(ops('self', 'own', 'tree', 'custom'));
      expect(await loginRows(token.own)).toEqual(logins('self', 'own', 'tree', 'custom'));
      expect(await exported(token.own)).toEqual(ops('self', 'own', 'tree', 'custom'));
    });

    it('includes the child organisations for an org-and-children caller', async () => {
      expect(await opRows(token.tree)).toEqual(ops('self', 'own', 'tree', 'custom', 'child'));
      expect(await loginRows(token.tree)).toEqual(logins('self', 'own', 'tree', 'custom', 'child'));
    });

    it('shows a Custom caller the listed organisations only (not their own)', async () => {
      expect(await opRows(token.custom)).toEqual(ops('all', 'b'));
      expect(await loginRows(token.custom)).toEqual(logins('all', 'b'));
    });

    it('shows All and the super admin every row, those without a user included', async () => {
      const everyone = ops(...ACCOUNTS, 'nobody');
      const accounts = [...logins(...ACCOUNTS), 'lsc-unknown'].sort();
      for (const caller of [token.all, h.admin]) {
        expect(await opRows(caller)).toEqual(everyone);
        expect(await loginRows(caller)).toEqual(accounts);
      }
      expect(await exported(token.all)).toEqual(everyone);
    });

    it('shows nothing when the scope cannot be resolved (an org scope without an organisation)', async () => {
      for (const path of ['/api/v1/sys/log/op/page', '/api/v1/sys/log/login/page']) {
        const page = await h.ok('GET', `${path}?size=200`, { token: token.orgless });
        expect({ path, total: page.total, items: page.items }).toEqual({ path, total: 0, items: [] });
      }
      expect(await exported(token.orgless)).toEqual([]);
    });

    it('applies the filters within the scope', async () => {
      expect(await opRows(token.own, '&success=false')).toEqual(
        ['self', 'own', 'tree', 'custom'].map((w) => `${w}/fail`).sort(),
      );
      expect(await loginRows(token.tree, '&account=LSC-CHILD')).toEqual(['lsc-child']);
      expect(await loginRows(token.own, '&account=lsc-child')).toEqual([]);
      expect(await loginRows(token.own, '&account=lsc-unknown')).toEqual([]);
      expect(await loginRows(h.admin, '&account=lsc-unknown')).toEqual(['lsc-unknown']);
    });

    it('counts in the dashboard trend the successful logins the login-log page shows', async () => {
      for (const who of ['self', 'own', 'custom'] as const) {
        const page = await h.ok('GET', '/api/v1/sys/log/login/page?size=200', { token: token[who] });
        const successes = (page.items as { success: boolean }[]).filter((r) => r.success).length;
        const summary = await h.ok('GET', '/api/v1/dashboard/summary', { token: token[who] });
        const trend = (summary.trendLogins as number[]).reduce((a, b) => a + b, 0);
        expect({ who, trend }).toEqual({ who, trend: successes });
      }
    });

    it('moves a user’s rows with the user: moved into A, B’s rows show for A and leave B’s list', async () => {
      await h.ok('PUT', `/api/v1/sys/user/${id.b}`, { json: { orgId: orgA } });
      expect(await opRows(token.own)).toEqual(ops('self', 'own', 'tree', 'custom', 'b'));
      expect(await loginRows(token.own)).toEqual(logins('self', 'own', 'tree', 'custom', 'b'));
      expect(await opRows(token.custom)).toEqual(ops('all'));
      expect(await loginRows(token.custom)).toEqual(logins('all'));
    });

    /**
     * Records an exception row (it belongs to no user: no scope short of All holds it); message and path name the
     * trace, as the flood guard stores identical exceptions once a window.
     */
    const recordException = (traceId: string) =>
      h.t.server.deps.exceptions.record(new TypeError(`lsc-boom ${traceId}`), {
        method: 'GET',
        path: `${PATH}exception/${traceId}`,
        traceId,
      });
    /** The exception-log page's rows of the trace. */
    const exceptionRows = async (caller: string, traceId: string) => {
      const page = await h.ok('GET', '/api/v1/sys/log/exception/page?size=200', { token: caller });
      return (page.items as { traceId: string }[]).map((r) => r.traceId).filter((t) => t === traceId);
    };

    it('shows the exception log (rows of no user) to All and the super admin only: any other scope reads none', async () => {
      await recordException('lsc-read');
      for (const who of ['self', 'own', 'tree', 'custom', 'orgless'] as const) {
        const answer = await h.call('GET', '/api/v1/sys/log/exception/page?size=200', { token: token[who] });
        const { code, data } = answer.body;
        expect({ who, code, total: data?.total, items: data?.items }).toEqual({
          who,
          code: 0,
          total: 0,
          items: [],
        });
      }
      for (const caller of [token.all, h.admin])
        expect(await exceptionRows(caller, 'lsc-read')).toEqual(['lsc-read']);
    });

    // Last: a caller of scope All clears the logs at the end.
    it('lets only a caller of scope All clear a log: the rest get 41005 and every row stays', async () => {
      await recordException('lsc-trace');
      expect(await exceptionRows(h.admin, 'lsc-trace')).toEqual(['lsc-trace']);
      for (const who of ['self', 'own', 'tree', 'custom', 'orgless'] as const) {
        for (const log of ['op', 'login', 'exception']) {
          const answer = await h.call('DELETE', `/api/v1/sys/log/${log}`, { token: token[who] });
          expect({ who, log, code: answer.body.code }).toEqual({ who, log, code: 41005 });
        }
      }
      expect(await opRows(h.admin)).toEqual(ops(...ACCOUNTS, 'nobody'));
      expect(await loginRows(h.admin)).toContain('lsc-unknown');
      expect(await exceptionRows(h.admin, 'lsc-trace')).toEqual(['lsc-trace']);
      for (const log of ['op', 'login', 'exception']) {
        await h.ok('DELETE', `/api/v1/sys/log/${log}`, { token: token.all });
      }
      expect(await opRows(h.admin)).toEqual([]);
      expect(await loginRows(h.admin)).toEqual([]);
      expect(await exceptionRows(h.admin, 'lsc-trace')).toEqual([]);
    });
  });
}
