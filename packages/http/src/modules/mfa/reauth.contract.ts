/**
 * Re-authentication and the MFA administration over HTTP: the window per user and session (password or TOTP,
 * `ReauthWindowMinutes`), 403/40024 with nothing changed until then while TOTP is on, MFA clearing, and the
 * high-sensitivity list (built-in set read-only, real permission routes only).
 */
import { createHighSensitivityRepository } from '@svc/data';
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, login } from '../../testing/auth.js';
import {
  grantPermissions,
  setRuntimeConfig,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../testing/index.js';
import { addUser, post, startMfaServer, testClock } from './helpers.contract.js';
import { totpCode } from './rfc6238.contract.js';
import { bindTotp } from './totp.contract.js';

const CLEAR = 'POST:/api/v1/sys/mfa/clear';
const HS_LIST = 'GET:/api/v1/sys/mfa/high-sensitivity';
const HS_ADD = 'POST:/api/v1/sys/mfa/high-sensitivity';
const HS_DELETE = 'DELETE:/api/v1/sys/mfa/high-sensitivity/{id}';

export function defineReauthContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`re-authentication and MFA administration on ${dbType} with ${cache}`, () => {
    const clock = testClock();
    let t: TestServer;
    let admin: string;
    const as = (token: string) => bearer(token);
    const reauth = (token: string, body: unknown) => post(t, '/api/v1/auth/reauth', body, as(token));
    const clear = (token: string, userId: number) => post(t, '/api/v1/sys/mfa/clear', { userId }, as(token));
    const boundUser = async (account: string) => {
      const id = await addUser(t, { account });
      await bindTotp(t, clock, account);
      return id;
    };

    beforeAll(async () => {
      t = await startMfaServer(dbType, cache, clock);
      await setRuntimeConfig(t, 'sys.security.totp.enabled', 'true');
      admin = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
    });
    afterAll(() => t?.close());

    it('needs a session, and refuses a marked route with 403/40024 changing nothing until re-authentication', async () => {
      expect(
        (await t.request('/api/v1/auth/reauth', { json: { method: 'password', password: 'x' } })).status,
      ).toBe(401);
      const target = await boundUser('ra-a');
      const refused = await t.request('/api/v1/sys/mfa/clear', {
        json: { userId: target },
        headers: as(admin),
      });
      expect(refused.status).toBe(403);
      expect(await json(refused)).toMatchObject({ code: 40024, msgKey: 'error.auth.reauthRequired' });
      expect((await t.server.database.repos.users.findById(target))?.totpSecret).not.toBeNull();

      const wrong = await reauth(admin, { method: 'password', password: 'Wrong#Pass1' });
      expect(wrong.body.code).toBe(40001);
      const ok = await reauth(admin, { method: 'password', password: TEST_ADMIN_PASSWORD });
      expect(ok.body.code).toBe(0);
      expect(Date.parse(ok.body.data.expiresAt) - clock.now().getTime()).toBe(5 * 60_000);
      expect((await clear(admin, target)).body.code).toBe(0);
      expect((await t.server.database.repos.users.findById(target))?.totpSecret).toBeNull();
      expect((await clear(admin, 999_999)).body.code).toBe(42001);
    });

    it('binds the window to the session and ends it after ReauthWindowMinutes', async () => {
      const target = await boundUser('ra-b');
      const other = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
      expect((await reauth(admin, { method: 'password', password: TEST_ADMIN_PASSWORD })).body.code).toBe(0);
      const fromOther = await t.request('/api/v1/sys/mfa/clear', {
        json: { userId: target },
        headers: as(other),
      });
      expect(fromOther.status).toBe(403);
      clock.advance(5 * 60 + 1);
      const expired = await t.request('/api/v1/sys/mfa/clear', {
        json: { userId: target },
        headers: as(admin),
      });
      expect(expired.status).toBe(403);
      expect((await t.server.database.repos.users.findById(target))?.totpSecret).not.toBeNull();
    });

    it('re-authenticates with a TOTP code, refusing a wrong one and a missing field', async () => {
      await grantPermissions(t, { account: 'ra-op', permissions: [CLEAR] });
      const { seed } = await bindTotp(t, clock, 'ra-op');
      const step = await post(t, '/api/v1/auth/login', { account: 'ra-op', password: TEST_USER_PASSWORD });
      const session = await post(t, '/api/v1/auth/login/totp', {
        challengeId: step.body.args.challengeId,
        code: totpCode(seed, clock.now()),
      });
      const token = session.body.data.accessToken;
      clock.advance(30);
      const missing = await reauth(token, { method: 'totp' });
      expect(missing.body.code).toBe(48000);
      expect(missing.body.args.errors[0].path).toBe('totpCode');
      expect((await reauth(token, { method: 'totp', totpCode: '12345a' })).body.code).toBe(40019);
      expect((await reauth(token, { method: 'totp', totpCode: totpCode(seed, clock.now()) })).body.code).toBe(
        0,
      );
      const target = await boundUser('ra-c');
      expect((await clear(token, target)).body.code).toBe(0);
      // A password-only account cannot use the TOTP method.
      const plain = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
      expect((await reauth(plain, { method: 'totp', totpCode: '123456' })).body.code).toBe(40020);
    });

    it('never stores a re-authentication TOTP code in clear in the operation log', async () => {
      await grantPermissions(t, { account: 'ra-mask', permissions: [] });
      const { seed } = await bindTotp(t, clock, 'ra-mask');
      const step = await post(t, '/api/v1/auth/login', { account: 'ra-mask', password: TEST_USER_PASSWORD });
      const session = await post(t, '/api/v1/auth/login/totp', {
        challengeId: step.body.args.challengeId,
        code: totpCode(seed, clock.now()),
      });
      clock.advance(30);
      const code = totpCode(seed, clock.now());
      expect(
        (await reauth(session.body.data.accessToken, { method: 'totp', totpCode: code })).body.code,
      ).toBe(0);
      await t.server.deps.core.opLog.drain(5000);
      const page = await t.request('/api/v1/sys/log/op/page?size=200', { headers: as(admin) });
      const rows = (await json(page)).data.items as { path: string; paramJson: string | null }[];
      const row = rows.find((r) => r.path === '/api/v1/auth/reauth' && r.paramJson?.includes('totp'));
      expect(JSON.parse(row?.paramJson as string)).toEqual({ body: { method: 'totp', totpCode: '***' } });
      for (const r of rows) expect(r.paramJson ?? '').not.toContain(code);
    });

    it('refuses the three audit-log clears with 40024 until re-authentication, listed or not; the clear is op-logged', async () => {
      const { db, tables } = t.server.database.database;
      const rows = async () => ({
        op: (await db.select().from(tables.sysOpLog)).length,
        login: (await db.select().from(tables.sysLoginLog)).length,
        exception: (await db.select().from(tables.sysExceptionLog)).length,
      });
      const wipes = ['op', 'login', 'exception'] as const;
      const wipe = (token: string, log: string) =>
        t.request(`/api/v1/sys/log/${log}`, { method: 'DELETE', headers: as(token) });
      await t.server.deps.exceptions.record(new TypeError('evidence'), {
        method: 'GET',
        path: '/x',
        traceId: 'w-1',
      });
      expect((await reauth(admin, { method: 'password', password: TEST_ADMIN_PASSWORD })).body.code).toBe(0);
      await t.server.deps.core.opLog.drain(5000);
      const stolen = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
      const before = await rows();
      expect(Math.min(before.op, before.login, before.exception)).toBeGreaterThan(0);
      const refusedAll = async () => {
        for (const log of wipes) {
          const res = await wipe(stolen, log);
          expect(res.status, log).toBe(403);
          expect((await json(res)).code, log).toBe(40024);
        }
        await t.server.deps.core.opLog.drain(5000);
        const now = await rows();
        expect(now.login).toBeGreaterThanOrEqual(before.login);
        expect(now.exception).toBe(before.exception);
        expect(now.op).toBeGreaterThanOrEqual(before.op);
      };
      // Default configuration: the three codes are built in.
      await refusedAll();
      const listed = (await json(await t.request('/api/v1/sys/mfa/high-sensitivity', { headers: as(admin) })))
        .data;
      for (const log of wipes)
        expect(listed).toContainEqual(
          expect.objectContaining({ permissionCode: `DELETE:/api/v1/sys/log/${log}`, builtIn: true }),
        );
      // A deployment that had added a code before it was built in, and an attempt to add one now.
      const legacy = createHighSensitivityRepository(t.server.database.database);
      const { id: legacyId } = await legacy.add({
        permissionCode: 'DELETE:/api/v1/sys/log/op',
        createTime: clock.now(),
      });
      const other = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
      expect((await reauth(other, { method: 'password', password: TEST_ADMIN_PASSWORD })).body.code).toBe(0);
      const add = await post(
        t,
        '/api/v1/sys/mfa/high-sensitivity',
        { permissionCode: 'DELETE:/api/v1/sys/log/login' },
        as(other),
      );
      expect(add.body.code).toBe(48000);
      await refusedAll();

      expect((await reauth(stolen, { method: 'password', password: TEST_ADMIN_PASSWORD })).body.code).toBe(0);
      for (const log of wipes)
        expect((await json(await wipe(stolen, log))).data.cleared, log).toBeGreaterThan(0);
      await t.server.deps.core.opLog.drain(5000);
      const kept = (await db.select().from(tables.sysOpLog)).map(
        (r) => `${r.httpMethod} ${r.path} ${r.resultCode}`,
      );
      expect(kept).toContain('DELETE /api/v1/sys/log/op 0');
      await legacy.delete(legacyId);
    });

    it('checks the permission before anything else', async () => {
      await grantPermissions(t, { account: 'ra-none', permissions: [] });
      const token = (await login(t, 'ra-none', TEST_USER_PASSWORD)).accessToken;
      const res = await t.request('/api/v1/sys/mfa/clear', { json: { userId: 1 }, headers: as(token) });
      expect(res.status).toBe(403);
      expect((await json(res)).code).toBe(41001);
    });

    it('does not ask for re-authentication while the TOTP capability is off', async () => {
      await setRuntimeConfig(t, 'sys.security.totp.enabled', 'false');
      try {
        const fresh = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
        const target = await addUser(t, { account: 'ra-d' });
        expect((await clear(fresh, target)).body.code).toBe(0);
      } finally {
        await setRuntimeConfig(t, 'sys.security.totp.enabled', 'true');
      }
    });

    it('lists the built-in high-sensitivity set read-only and adds and removes real permission routes', async () => {
      const list = async (token: string) =>
        (await json(await t.request('/api/v1/sys/mfa/high-sensitivity', { headers: as(token) }))).data;
      const token = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
      const builtIn = await list(token);
      expect(builtIn).toContainEqual({ id: null, permissionCode: CLEAR, remark: null, builtIn: true });
      expect(builtIn).toContainEqual(
        expect.objectContaining({ permissionCode: 'DELETE:/api/v1/sys/session/{sessionid}', builtIn: true }),
      );
      expect(builtIn).toContainEqual(
        expect.objectContaining({ permissionCode: 'POST:/api/v1/sys/user', builtIn: true }),
      );
      expect(builtIn.every((i: { builtIn: boolean }) => i.builtIn)).toBe(true);

      const add = (body: unknown) =>
        t.request('/api/v1/sys/mfa/high-sensitivity', { json: body, headers: as(token) });
      const refused = await add({ permissionCode: HS_LIST });
      expect(refused.status).toBe(403);
      expect((await list(token)).some((i: { builtIn: boolean }) => !i.builtIn)).toBe(false);

      expect((await reauth(token, { method: 'password', password: TEST_ADMIN_PASSWORD })).body.code).toBe(0);
      const unknown = await json(await add({ permissionCode: 'POST:/api/v1/nowhere' }));
      expect(unknown).toMatchObject({ code: 48000, args: { errors: [{ path: 'permissionCode' }] } });
      expect((await json(await add({ permissionCode: CLEAR }))).code).toBe(48000);
      expect((await json(await add({ permissionCode: 'x', extra: 1 }))).code).toBe(48000);
      const added = await json(
        await add({ permissionCode: 'get:/api/v1/sys/mfa/HIGH-SENSITIVITY', remark: 'audit' }),
      );
      expect(added.code).toBe(0);
      const again = await json(await add({ permissionCode: HS_LIST }));
      expect(again.data.id).toBe(added.data.id);
      expect(await list(token)).toContainEqual({
        id: added.data.id,
        permissionCode: HS_LIST,
        remark: 'audit',
        builtIn: false,
      });

      const del = (id: string) =>
        t.request(`/api/v1/sys/mfa/high-sensitivity/${id}`, { method: 'DELETE', headers: as(token) });
      expect((await json(await del('abc'))).code).toBe(48000);
      expect((await json(await del(String(added.data.id)))).code).toBe(0);
      expect((await json(await del(String(added.data.id)))).code).toBe(48003);
      expect((await list(token)).some((i: { builtIn: boolean }) => !i.builtIn)).toBe(false);
      for (const code of [HS_ADD, HS_DELETE])
        expect(builtIn.some((i: { permissionCode: string }) => i.permissionCode === code)).toBe(false);
    });
  });
}
