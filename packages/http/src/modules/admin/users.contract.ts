/**
 * User administration over HTTP: create (configured and generated initial passwords, forced change read at
 * creation), detail and page with filters, update with role assignment, strict bodies, reset, enable/disable
 * ending sessions, soft delete and batch delete, the super-admin and self protections, not-found codes, paging
 * limits and sort-field injection.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, login } from '../../testing/auth.js';
import { setRuntimeConfig, startTestServer } from '../../testing/index.js';
import { type AdminHarness, ROOT_ORG_ID, startAdminServer, USER_PASSWORD } from './harness.contract.js';

export function defineUserAdminContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`user administration on ${dbType} with ${cache}`, () => {
    let h: AdminHarness;
    beforeAll(async () => {
      h = await startAdminServer(dbType, cache);
    });
    afterAll(() => h?.close());

    it('creates a user with the configured initial password, shows it in detail and page, and lets it log in', async () => {
      const created = await h.ok('POST', '/api/v1/sys/user', {
        json: {
          account: 'alice',
          realName: 'Alice A',
          orgId: ROOT_ORG_ID,
          phone: '55555',
          email: 'a@example.com',
        },
      });
      expect(created.initialPassword).toBeUndefined();
      const detail = await h.ok('GET', `/api/v1/sys/user/${created.id}`);
      expect(detail).toMatchObject({
        id: created.id,
        account: 'alice',
        realName: 'Alice A',
        orgId: ROOT_ORG_ID,
        phone: '55555',
        enabled: true,
        mustChangePassword: false,
        forceTotp: false,
        totpBound: false,
        isSuperAdmin: false,
        roleIds: [],
      });
      expect(detail.password).toBeUndefined();
      expect(detail.createTime).toMatch(/Z$/);
      const row = await h.t.server.database.repos.users.findById(created.id);
      expect(row?.createUserId).toBe(h.adminId);
      expect(row?.password.startsWith('pbkdf2-sha256$100000$')).toBe(true);
      const session = await login(h.t, 'alice', USER_PASSWORD);
      expect(session.mustChangePassword).toBe(false);

      const page = await h.ok('GET', '/api/v1/sys/user/page?account=LIC&size=5');
      expect(page).toMatchObject({ current: 1, size: 5, total: 1, pages: 1 });
      expect(page.items[0]).toMatchObject({ id: created.id, account: 'alice' });
    });

    it('takes an optional initial password checked against the policy (42019 with the requirements)', async () => {
      const weak = await h.call('POST', '/api/v1/sys/user', {
        json: { account: 'chosen-weak', realName: 'W', orgId: ROOT_ORG_ID, password: 'short' },
      });
      expect(weak.body).toMatchObject({
        code: 42019,
        args: {
          minLength: 8,
          requireUpper: true,
          requireDigit: true,
          unmet: ['minLength', 'requireUpper', 'requireDigit'],
        },
      });
      expect((await h.ok('GET', '/api/v1/sys/user/page?account=chosen-weak')).total).toBe(0);
      const empty = await h.call('POST', '/api/v1/sys/user', {
        json: { account: 'chosen-empty', realName: 'E', orgId: ROOT_ORG_ID, password: '' },
      });
      expect(empty.body.code).toBe(48000);
      const created = await h.ok('POST', '/api/v1/sys/user', {
        json: { account: 'chosen-ok', realName: 'C', orgId: ROOT_ORG_ID, password: 'Chosen#Pass99' },
      });
      expect(created.initialPassword).toBeUndefined();
      expect((await login(h.t, 'chosen-ok', 'Chosen#Pass99')).accessToken).toBeTruthy();
      const row = await h.t.server.database.repos.users.findById(created.id);
      expect(row?.password).not.toContain('Chosen');
    });

    it('refuses a second live user with the same account in any case (42006), but a duplicate phone is fine', async () => {
      await h.ok('POST', '/api/v1/sys/user', {
        json: { account: 'dup', realName: 'D', orgId: ROOT_ORG_ID, phone: '77777' },
      });
      const again = await h.call('POST', '/api/v1/sys/user', {
        json: { account: ' DUP ', realName: 'D2', orgId: ROOT_ORG_ID },
      });
      expect(again.body.code).toBe(42006);
      await h.ok('POST', '/api/v1/sys/user', {
        json: { account: 'dup2', realName: 'D', orgId: ROOT_ORG_ID, phone: '77777' },
      });
    });

    it('stores only phone numbers: user create and update, organisation create and update, import (48000, 46008)', async () => {
      const bad = [
        'not-a-phone',
        '1234',
        '1'.repeat(21),
        '+',
        '12 34-',
        '-12345',
        '12+345',
        '１２３４５',
        '12345\n',
      ];
      const good = ['12345', '+49 30-1234567', '138-0013-8000', '1'.repeat(20)];
      const user = await h.ok('POST', '/api/v1/sys/user', {
        json: { account: 'phone-check', realName: 'P', orgId: ROOT_ORG_ID },
      });
      const org = await h.ok('POST', '/api/v1/sys/org', { json: { name: 'Phones', code: 'phone-org' } });
      for (const phone of bad) {
        for (const [method, path, json] of [
          ['POST', '/api/v1/sys/user', { account: 'phone-bad', realName: 'P', orgId: ROOT_ORG_ID, phone }],
          ['PUT', `/api/v1/sys/user/${user.id}`, { phone }],
          ['POST', '/api/v1/sys/org', { name: 'Bad', code: 'phone-bad-org', phone }],
          ['PUT', `/api/v1/sys/org/${org.id}`, { phone }],
        ] as const) {
          const res = await h.call(method, path, { json });
          const label = `${method} ${path} ${JSON.stringify(phone)}`;
          expect(res.body.code, label).toBe(48000);
          expect(
            res.body.args.errors.map((e: { path: string }) => e.path),
            label,
          ).toEqual(expect.arrayContaining(['phone']));
        }
        // The import trims its cells (a trailing newline is no part of the number there).
        if (phone.trim() !== phone) continue;
        const checked = await h.ok('POST', '/api/v1/sys/user/import/validate', {
          json: {
            rows: [{ index: 1, cells: { account: 'phone-imp', realName: 'P', orgCode: 'root', phone } }],
          },
        });
        expect(checked.rows[0].errors, JSON.stringify(phone)).toEqual([{ columnKey: 'phone', code: 46008 }]);
      }
      expect((await h.ok('GET', '/api/v1/sys/user/page?account=phone-bad')).total).toBe(0);
      expect((await h.ok('GET', `/api/v1/sys/user/${user.id}`)).phone).toBeNull();
      for (const phone of good) {
        await h.ok('PUT', `/api/v1/sys/user/${user.id}`, { json: { phone } });
        expect((await h.ok('GET', `/api/v1/sys/user/${user.id}`)).phone).toBe(phone);
        await h.ok('PUT', `/api/v1/sys/org/${org.id}`, { json: { phone } });
        expect((await h.ok('GET', `/api/v1/sys/org/${org.id}`)).phone).toBe(phone);
      }
      // Clearing stays possible.
      await h.ok('PUT', `/api/v1/sys/user/${user.id}`, { json: { phone: null } });
    });

    it('refuses unknown body properties, so the super-admin flag and the hash can never be set (48000 with paths)', async () => {
      const id = await h.user('mallory');
      for (const extra of [
        { isSuperAdmin: true },
        { password: 'x' },
        { mustChangePassword: false },
        { account: 'other' },
      ]) {
        const res = await h.call('PUT', `/api/v1/sys/user/${id}`, { json: { realName: 'M', ...extra } });
        expect(res.status).toBe(200);
        expect(res.body.code).toBe(48000);
        expect(JSON.stringify(res.body.args.errors)).toContain(Object.keys(extra)[0]);
      }
      const create = await h.call('POST', '/api/v1/sys/user', {
        json: { account: 'sneaky', realName: 'S', orgId: ROOT_ORG_ID, isSuperAdmin: true },
      });
      expect(create.body.code).toBe(48000);
      const row = await h.t.server.database.repos.users.findById(id);
      expect(row?.isSuperAdmin).toBe(false);
      expect(await h.t.server.database.repos.users.findByAccount('sneaky')).toBeUndefined();
    });

    it('answers 48000 naming the field for malformed bodies and ids, 42001 for unknown ids, never 500', async () => {
      const bad = await h.call('POST', '/api/v1/sys/user', {
        json: { account: '', realName: 'x', email: 'not-mail' },
      });
      expect(bad.body.code).toBe(48000);
      const paths = bad.body.args.errors.map((e: { path: string }) => e.path);
      expect(paths).toEqual(expect.arrayContaining(['account', 'email']));
      expect((await h.call('GET', '/api/v1/sys/user/abc')).body).toMatchObject({ code: 48000 });
      expect((await h.call('GET', '/api/v1/sys/user/0')).body.code).toBe(48000);
      expect((await h.call('GET', '/api/v1/sys/user/999999')).body.code).toBe(42001);
      expect((await h.call('PUT', '/api/v1/sys/user/999999', { json: { realName: 'x' } })).body.code).toBe(
        42001,
      );
      expect((await h.call('DELETE', '/api/v1/sys/user/999999')).body.code).toBe(42001);
      expect((await h.call('PUT', '/api/v1/sys/user/999999/password')).body.code).toBe(42001);
      expect(
        (await h.call('PUT', '/api/v1/sys/user/999999/enabled', { json: { enabled: false } })).body.code,
      ).toBe(42001);
      const malformed = await h.t.request('/api/v1/sys/user', {
        method: 'POST',
        headers: { ...bearer(h.admin), 'content-type': 'application/json' },
        body: '{"account": ',
      });
      expect((await json(malformed)).code).toBe(48000);
      const id = await h.user('placer');
      expect((await h.call('PUT', `/api/v1/sys/user/${id}`, { json: { orgId: 987654 } })).body.code).toBe(
        42003,
      );
      expect(
        (await h.call('PUT', `/api/v1/sys/user/${id}`, { json: { positionId: 987654 } })).body.code,
      ).toBe(42005);
      expect((await h.call('PUT', `/api/v1/sys/user/${id}`, { json: { roleIds: [987654] } })).body.code).toBe(
        42002,
      );
    });

    it('assigns roles through update and shows them; role filter and enabled filter select users', async () => {
      const roleId = await h.role('viewer', ['GET:/api/v1/ping-not-a-route']);
      const id = await h.user('bob');
      await h.ok('PUT', `/api/v1/sys/user/${id}`, { json: { roleIds: [roleId], nickName: 'bobby' } });
      expect(await h.ok('GET', `/api/v1/sys/user/${id}`)).toMatchObject({
        roleIds: [roleId],
        nickName: 'bobby',
      });
      const row = await h.t.server.database.repos.users.findById(id);
      expect(row?.updateUserId).toBe(h.adminId);
      const byRole = await h.ok('GET', `/api/v1/sys/user/page?roleId=${roleId}`);
      expect(byRole.items.map((u: { id: number }) => u.id)).toEqual([id]);
      await h.ok('PUT', `/api/v1/sys/user/${id}/enabled`, { json: { enabled: false } });
      const disabled = await h.ok('GET', '/api/v1/sys/user/page?enabled=false');
      expect(disabled.items.map((u: { id: number }) => u.id)).toContain(id);
      expect(disabled.items.every((u: { enabled: boolean }) => !u.enabled)).toBe(true);
      expect((await h.call('GET', '/api/v1/sys/user/page?enabled=maybe')).body.code).toBe(48000);
    });

    it('disabling a user ends their sessions at once; a disabled user cannot log in', async () => {
      const id = await h.user('carol');
      const token = await h.loginAs('carol');
      expect((await h.call('GET', '/api/v1/ping', { token })).status).toBe(200);
      await h.ok('PUT', `/api/v1/sys/user/${id}/enabled`, { json: { enabled: false } });
      expect((await h.call('GET', '/api/v1/ping', { token })).status).toBe(401);
      const again = await h.call('POST', '/api/v1/auth/login', {
        token: '',
        json: { account: 'carol', password: USER_PASSWORD },
      });
      expect(again.body.code).toBe(40005);
      await h.ok('PUT', `/api/v1/sys/user/${id}/enabled`, { json: { enabled: true } });
      await h.loginAs('carol');
    });

    it('soft-deletes: sessions end, the row stays queryable but leaves lists and detail', async () => {
      const id = await h.user('dave');
      const token = await h.loginAs('dave');
      await h.ok('DELETE', `/api/v1/sys/user/${id}`);
      expect((await h.call('GET', '/api/v1/ping', { token })).status).toBe(401);
      expect((await h.call('GET', `/api/v1/sys/user/${id}`)).body.code).toBe(42001);
      const page = await h.ok('GET', '/api/v1/sys/user/page?account=dave');
      expect(page.total).toBe(0);
      const row = await h.t.server.database.repos.users.findById(id, { includeDeleted: true });
      expect(row).toMatchObject({ isDelete: true, updateUserId: h.adminId });
    });

    it('batch delete removes all or nothing', async () => {
      const a = await h.user('batch-a');
      const b = await h.user('batch-b');
      const refused = await h.call('POST', '/api/v1/sys/user/batch-delete', {
        json: { ids: [a, b, 999999] },
      });
      expect(refused.body).toMatchObject({ code: 42001, args: { ids: [999999] } });
      expect(await h.t.server.database.repos.users.findById(a)).toBeDefined();
      const withAdmin = await h.call('POST', '/api/v1/sys/user/batch-delete', {
        json: { ids: [a, h.adminId] },
      });
      expect(withAdmin.body.code).toBe(42007);
      expect(await h.t.server.database.repos.users.findById(a)).toBeDefined();
      expect(await h.ok('POST', '/api/v1/sys/user/batch-delete', { json: { ids: [a, b] } })).toEqual({
        deleted: 2,
      });
      expect((await h.call('POST', '/api/v1/sys/user/batch-delete', { json: { ids: [] } })).body.code).toBe(
        48000,
      );
    });

    it('the super admin cannot be deleted or disabled, not even by themselves (42007)', async () => {
      expect((await h.call('DELETE', `/api/v1/sys/user/${h.adminId}`)).body.code).toBe(42007);
      expect(
        (await h.call('PUT', `/api/v1/sys/user/${h.adminId}/enabled`, { json: { enabled: false } })).body
          .code,
      ).toBe(42007);
      expect((await h.ok('GET', `/api/v1/sys/user/${h.adminId}`)).enabled).toBe(true);
    });

    it('admin reset answers a new password, forces a change, records history and ends the user’s sessions', async () => {
      const id = await h.user('erin');
      const token = await h.loginAs('erin');
      const { password } = await h.ok('PUT', `/api/v1/sys/user/${id}/password`);
      expect(password).toBe(USER_PASSWORD);
      expect((await h.call('GET', '/api/v1/ping', { token })).status).toBe(401);
      const session = await login(h.t, 'erin', password);
      expect(session.mustChangePassword).toBe(true);
    });

    it('pages per contract §3: 48001 above the maximum, case-insensitive names, sort field never injected', async () => {
      for (const account of ['sort-c', 'sort-a', 'sort-d', 'sort-b']) await h.user(account);
      const before = await h.t.server.database.repos.users.countAll();
      const over = await h.call('GET', '/api/v1/sys/user/page?size=201');
      expect(over.body).toMatchObject({ code: 48001, args: { size: 201, max: 200 } });
      const upper = await h.call('GET', '/api/v1/sys/user/page?SIZE=500');
      expect(upper.body.code).toBe(48001);
      expect((await h.ok('GET', '/api/v1/sys/user/page?Size=2&CURRENT=1')).size).toBe(2);
      expect((await h.ok('GET', '/api/v1/sys/user/page?size=0&current=-3')).size).toBe(20);
      const asc = await h.ok('GET', '/api/v1/sys/user/page?sortField=account&sortOrder=asc&size=200');
      const accounts = asc.items.map((u: { account: string }) => u.account);
      expect(accounts).toEqual([...accounts].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
      const ids = (page: { items: { id: number }[] }) => page.items.map((u) => u.id);
      const byDefault = ids(await h.ok('GET', '/api/v1/sys/user/page?size=200'));
      expect(byDefault).toEqual([...byDefault].sort((a, b) => b - a));
      for (const attack of [
        'account;drop table sys_user',
        'account desc, (select 1)',
        '1; delete from sys_user; --',
        'password',
        'totp_secret',
      ]) {
        const res = await h.call(
          'GET',
          `/api/v1/sys/user/page?size=200&sortOrder=asc&sortField=${encodeURIComponent(attack)}`,
        );
        expect(res.body.code, attack).toBe(0);
        expect(ids(res.body.data), `${attack} is ignored`).toEqual(byDefault);
      }
      expect(await h.t.server.database.repos.users.countAll()).toBe(before);
      expect((await h.call('GET', '/api/v1/sys/user/page?current=abc')).body.code).toBe(48000);
    });
  });

  describe(`initial passwords on ${dbType} with ${cache}`, () => {
    it('generates a strong random password when none is configured, returned once; forceChangeOnFirstLogin is read at creation', async () => {
      const t = await startTestServer({
        dbType,
        cache,
        env: { Service__Security__RateLimit__Enabled: 'false' },
      });
      try {
        const admin = (await login(t, 'superAdmin', 'Admin#Pass2345')).accessToken;
        const create = async (account: string) =>
          json(
            await t.request('/api/v1/sys/user', {
              headers: bearer(admin),
              json: { account, realName: account, orgId: ROOT_ORG_ID },
            }),
          );
        const first = await create('gen1');
        expect(first.code).toBe(0);
        expect(first.data.initialPassword).toMatch(/^.{16}$/);
        const session = await login(t, 'gen1', first.data.initialPassword);
        expect(session.mustChangePassword).toBe(false);
        await setRuntimeConfig(t, 'sys.security.password.forceChangeOnFirstLogin', 'true');
        const second = await create('gen2');
        expect(second.data.initialPassword).not.toBe(first.data.initialPassword);
        expect((await login(t, 'gen2', second.data.initialPassword)).mustChangePassword).toBe(true);
        // Read at creation: switching it off later does not release the account created under it.
        await setRuntimeConfig(t, 'sys.security.password.forceChangeOnFirstLogin', 'false');
        expect((await login(t, 'gen2', second.data.initialPassword)).mustChangePassword).toBe(true);
        const detail = await json(
          await t.request(`/api/v1/sys/user/${first.data.id}`, { headers: bearer(admin) }),
        );
        expect(JSON.stringify(detail)).not.toContain(first.data.initialPassword);
      } finally {
        await t.close();
      }
    });
  });
}
