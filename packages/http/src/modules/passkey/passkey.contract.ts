/**
 * Module `Passkey` over HTTP, written once and run on SQLite, PostgreSQL and MariaDB by the `passkey.*.int.test.ts`
 * runners, with the software authenticator of `authenticator.contract.ts` (the browser's side) and a clock the
 * tests move. One server per file: register, log in without a password, re-authenticate, list, rename and
 * remove; then what an attacker would try, each refused with its documented code.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login } from '../../testing/auth.js';
import {
  grantPermissions,
  setRuntimeConfig,
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../testing/index.js';
import { addUser, post, startMfaServer, testClock } from '../mfa/helpers.contract.js';
import { assert, attest, FLAGS, newCredential, type SoftCredential } from './authenticator.contract.js';
import { passkeyModule } from './index.js';

const PERSONAL = '/api/v1/personal/passkeys';
const LOGIN_OPTIONS = '/api/v1/auth/passkey/options';
const LOGIN = '/api/v1/auth/passkey/login';
const REAUTH = '/api/v1/auth/reauth';
const REAUTH_OPTIONS = '/api/v1/auth/reauth/passkey/options';
const ADMIN_LIST = 'GET:/api/v1/sys/user/{id}/passkeys';
const ADMIN_DELETE = 'DELETE:/api/v1/sys/user/{id}/passkeys/{passkeyid}';

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field.
type Body = { code: number; msgKey: string; data: any; args?: any };

export function definePasskeyContract(dbType: DbType, cache: 'Memory' | 'Redis' = 'Memory'): void {
  describe(`module Passkey on ${dbType} with ${cache}`, () => {
    const clock = testClock();
    let t: TestServer;

    const call = async (token: string | null, method: string, path: string, json?: unknown) => {
      const headers = token ? bearer(token) : {};
      const res = await t.request(path, { method, headers, ...(json === undefined ? {} : { json }) });
      return { status: res.status, body: (await res.json()) as Body };
    };
    const passwordReauth = async (token: string, password = TEST_USER_PASSWORD) =>
      expect((await post(t, REAUTH, { method: 'password', password }, bearer(token))).body.code).toBe(0);
    /** Registers a new passkey of the signed-in `token` (re-authenticating with the password first). */
    const register = async (token: string, password = TEST_USER_PASSWORD, name?: string) => {
      await passwordReauth(token, password);
      const options = (await call(token, 'POST', `${PERSONAL}/options`)).body;
      expect(options.code).toBe(0);
      const { credential, response } = attest(options.data.options);
      const added = await call(token, 'POST', PERSONAL, {
        challengeId: options.data.challengeId,
        response,
        ...(name ? { name } : {}),
      });
      expect(added.body).toMatchObject({ code: 0, data: { id: expect.any(Number) } });
      return { credential, id: added.body.data.id as number };
    };
    const loginOptions = async () => (await call(null, 'POST', LOGIN_OPTIONS)).body.data;
    const passkeyLogin = async (credential: SoftCredential, tweaks: Parameters<typeof assert>[2] = {}) => {
      const { challengeId, options } = await loginOptions();
      return call(null, 'POST', LOGIN, { challengeId, response: assert(credential, options, tweaks) });
    };
    const passkeyReauth = async (token: string, credential: SoftCredential) => {
      const { challengeId, options } = (await call(token, 'POST', REAUTH_OPTIONS)).body.data;
      return call(token, 'POST', REAUTH, {
        method: 'passkey',
        challengeId,
        response: assert(credential, options),
      });
    };
    /** A fresh user with a passkey, signed in. */
    const userWithPasskey = async (account: string, extra: Parameters<typeof addUser>[1] = { account }) => {
      const userId = await addUser(t, { ...extra, account });
      const token = (await login(t, account, TEST_USER_PASSWORD)).accessToken;
      const { credential, id } = await register(token);
      return { userId, token, credential, passkeyId: id };
    };
    const loginLog = async (userId: number) => {
      const { db, tables } = t.server.database.database;
      const rows = await db.select().from(tables.sysLoginLog);
      return rows.filter((r) => r.userId === userId).map((r) => r.resultCode);
    };
    /** A user's login-log rows as `code method`, oldest first. */
    const loginMethods = async (userId: number) => {
      const { db, tables } = t.server.database.database;
      const rows = (await db.select().from(tables.sysLoginLog)).sort((a, b) => a.id - b.id);
      return rows.filter((r) => r.userId === userId).map((r) => `${r.resultCode} ${r.method}`);
    };

    beforeAll(async () => {
      t = await startMfaServer(dbType, cache, clock);
      await setRuntimeConfig(t, 'sys.security.passkey.enabled', 'true');
    });
    afterAll(() => t?.close());

    it('is off by its switch: 40037 on every ceremony', async () => {
      await setRuntimeConfig(t, 'sys.security.passkey.enabled', 'false');
      try {
        expect((await call(null, 'POST', LOGIN_OPTIONS)).body.code).toBe(40037);
      } finally {
        await setRuntimeConfig(t, 'sys.security.passkey.enabled', 'true');
      }
      expect((await call(null, 'POST', LOGIN_OPTIONS)).body.code).toBe(0);
    });

    it('adds a passkey only within a re-authentication window, even while TOTP is off', async () => {
      await addUser(t, { account: 'pk-window' });
      const token = (await login(t, 'pk-window', TEST_USER_PASSWORD)).accessToken;
      const refused = await call(token, 'POST', `${PERSONAL}/options`);
      expect(refused.body.code).toBe(40024);
      await passwordReauth(token);
      const options = (await call(token, 'POST', `${PERSONAL}/options`)).body.data;
      expect(options.options).toMatchObject({
        rp: { id: 'localhost', name: 'Service' },
        user: { name: 'pk-window' },
        attestation: 'none',
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        excludeCredentials: [],
      });
    });

    it('registers, lists, renames and removes a passkey; the list excludes it from the next registration', async () => {
      await addUser(t, { account: 'pk-life' });
      const token = (await login(t, 'pk-life', TEST_USER_PASSWORD)).accessToken;
      const { id, credential } = await register(token, TEST_USER_PASSWORD, 'Laptop');
      const listed = (await call(token, 'GET', PERSONAL)).body.data;
      expect(listed).toEqual([
        { id, name: 'Laptop', createTime: expect.any(String), lastUsedTime: null, backedUp: false },
      ]);
      const next = (await call(token, 'POST', `${PERSONAL}/options`)).body.data.options;
      expect(next.excludeCredentials).toEqual([
        { id: credential.id.toString('base64url'), type: 'public-key', transports: ['internal'] },
      ]);
      expect((await call(token, 'PUT', `${PERSONAL}/${id}`, { name: 'Work laptop' })).body.code).toBe(0);
      expect((await call(token, 'GET', PERSONAL)).body.data[0].name).toBe('Work laptop');
      expect((await call(token, 'DELETE', `${PERSONAL}/${id}`)).body.code).toBe(0);
      expect((await call(token, 'GET', PERSONAL)).body.data).toEqual([]);
      expect((await passkeyLogin(credential)).body.code).toBe(40035);
    });

    it('logs in without a password or account: two factors, a login-log row, the use recorded', async () => {
      const { userId, credential, token } = await userWithPasskey('pk-login');
      const options = await loginOptions();
      expect(options.options).toMatchObject({
        rpId: 'localhost',
        allowCredentials: [],
        userVerification: 'required',
      });
      clock.advance(60);
      const res = await call(null, 'POST', LOGIN, {
        challengeId: options.challengeId,
        response: assert(credential, options.options),
      });
      expect(res.body).toMatchObject({ code: 0, data: { accessToken: expect.any(String), userId } });
      // An MFA session (the idle rule of second-factor sessions applies).
      const { db, tables } = t.server.database.database;
      const sessions = await db.select().from(tables.sysSession);
      expect(sessions.find((s) => s.userId === userId && s.revokedAt === null && s.isMfa)).toBeDefined();
      expect((await loginLog(userId)).at(-1)).toBe(0);
      expect(await loginMethods(userId)).toEqual(['0 password', '0 passkey']);
      const [listed] = (await call(token, 'GET', PERSONAL)).body.data;
      expect(Date.parse(listed.lastUsedTime)).toBe(clock.now().getTime());
      // The new session works.
      expect((await call(res.body.data.accessToken, 'GET', PERSONAL)).status).toBe(200);
    });

    it('answers a cookie session when the console asks for one, as a password login does', async () => {
      const { credential } = await userWithPasskey('pk-cookie');
      const { challengeId, options } = await loginOptions();
      const res = await t.request(LOGIN, {
        headers: { 'x-app-session-mode': 'cookie' },
        json: { challengeId, response: assert(credential, options) },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie') ?? '').toMatch(/HttpOnly/i);
    });

    it('counts as two factors: no TOTP step, ForceTotp and requireForSuperAdmin satisfied', async () => {
      const { credential } = await userWithPasskey('pk-force', { account: 'pk-force', forceTotp: true });
      const admin = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
      const adminKey = await register(admin, TEST_ADMIN_PASSWORD);
      await setRuntimeConfig(t, 'sys.security.totp.enabled', 'true');
      await setRuntimeConfig(t, 'sys.security.totp.requireForSuperAdmin', 'true');
      try {
        expect(
          (await post(t, '/api/v1/auth/login', { account: 'pk-force', password: TEST_USER_PASSWORD })).body
            .code,
        ).toBe(40020);
        expect(
          (await post(t, '/api/v1/auth/login', { account: 'superAdmin', password: TEST_ADMIN_PASSWORD })).body
            .code,
        ).toBe(40020);
        expect((await passkeyLogin(credential)).body.code).toBe(0);
        expect((await passkeyLogin(adminKey.credential)).body.code).toBe(0);
        // Without user verification the passkey stands for the password only: the TOTP demand applies.
        expect((await passkeyLogin(credential, { flags: FLAGS.UP })).body.code).toBe(40035);
      } finally {
        await setRuntimeConfig(t, 'sys.security.totp.requireForSuperAdmin', 'false');
        await setRuntimeConfig(t, 'sys.security.totp.enabled', 'false');
      }
    });

    it('re-authenticates with the caller’s own passkey only', async () => {
      const a = await userWithPasskey('pk-reauth-a');
      const b = await userWithPasskey('pk-reauth-b');
      clock.advance(6 * 60); // the password windows of registration are over
      expect((await call(a.token, 'POST', `${PERSONAL}/options`)).body.code).toBe(40024);
      const ok = await passkeyReauth(a.token, a.credential);
      expect(ok.body.code).toBe(0);
      expect((await call(a.token, 'POST', `${PERSONAL}/options`)).body.code).toBe(0);
      // B's credential for A's re-authentication: refused, and counted on A's second-factor counter.
      const foreign = await passkeyReauth(a.token, b.credential);
      expect(foreign.body.code).toBe(40035);
      expect((await loginMethods(a.userId)).at(-1)).toBe('40035 passkey');
      // A login challenge is not a re-authentication challenge (another flow's).
      const { challengeId, options } = await loginOptions();
      const crossed = await call(a.token, 'POST', REAUTH, {
        method: 'passkey',
        challengeId,
        response: assert(a.credential, options),
      });
      expect(crossed.body.code).toBe(40036);
    });

    it('refuses a wrong origin, a wrong RP id hash, another key’s signature and missing user verification (40035)', async () => {
      const { credential, userId } = await userWithPasskey('pk-attack');
      const other = newCredential();
      expect((await passkeyLogin(credential, { origin: 'https://evil.example' })).body.code).toBe(40035);
      expect((await passkeyLogin(credential, { rpId: 'evil.example' })).body.code).toBe(40035);
      expect((await passkeyLogin(credential, { signWith: other.privateKey })).body.code).toBe(40035);
      expect((await passkeyLogin(credential, { flags: FLAGS.UP })).body.code).toBe(40035);
      // An unknown credential: the same code, and nobody's counter.
      expect((await passkeyLogin({ ...other, userHandle: 'eA' })).body.code).toBe(40035);
      expect((await loginLog(userId)).slice(-4)).toEqual([40035, 40035, 40035, 40035]);
      // Four failures on the counter (MaxFailCount 5): the right passkey still opens, and clears it.
      expect((await passkeyLogin(credential)).body.code).toBe(0);
    });

    it('refuses a replayed, another flow’s, a crossed and an expired challenge', async () => {
      const { credential, token } = await userWithPasskey('pk-challenge');
      const { challengeId, options } = await loginOptions();
      const response = assert(credential, options);
      expect((await call(null, 'POST', LOGIN, { challengeId, response })).body.code).toBe(0);
      expect((await call(null, 'POST', LOGIN, { challengeId, response })).body.code).toBe(40036);
      // A registration challenge at the login.
      await passwordReauth(token);
      const reg = (await call(token, 'POST', `${PERSONAL}/options`)).body.data;
      const withReg = await call(null, 'POST', LOGIN, {
        challengeId: reg.challengeId,
        response: assert(credential, { challenge: reg.options.challenge }),
      });
      expect(withReg.body.code).toBe(40036);
      // A challenge id with the client data of another challenge.
      const first = await loginOptions();
      const second = await loginOptions();
      const crossed = await call(null, 'POST', LOGIN, {
        challengeId: first.challengeId,
        response: assert(credential, second.options),
      });
      expect(crossed.body.code).toBe(40035);
      // Client data of a registration ceremony.
      expect((await passkeyLogin(credential, { type: 'webauthn.create' })).body.code).toBe(40035);
      const late = await loginOptions();
      clock.advance(301);
      const expired = await call(null, 'POST', LOGIN, {
        challengeId: late.challengeId,
        response: assert(credential, late.options),
      });
      expect(expired.body.code).toBe(40036);
      expect((await call(null, 'POST', LOGIN, { challengeId: 'never-issued', response })).body.code).toBe(
        40036,
      );
    });

    it('refuses a signature counter that goes back, and logs a possible clone (40039)', async () => {
      const userId = await addUser(t, { account: 'pk-clone' });
      const token = (await login(t, 'pk-clone', TEST_USER_PASSWORD)).accessToken;
      await passwordReauth(token);
      const options = (await call(token, 'POST', `${PERSONAL}/options`)).body.data;
      const { credential, response } = attest(options.options, {
        credential: newCredential(10),
        counter: 10,
      });
      expect(
        (await call(token, 'POST', PERSONAL, { challengeId: options.challengeId, response })).body.code,
      ).toBe(0);
      expect((await passkeyLogin(credential)).body.code).toBe(0); // 11
      const clone = await passkeyLogin(credential, { counter: 11 });
      expect(clone.body.code).toBe(40035);
      expect((await loginLog(userId)).slice(-2)).toEqual([40039, 40035]);
      expect((await loginMethods(userId)).slice(-2)).toEqual(['40039 passkey', '40035 passkey']);
      expect((await passkeyLogin(credential, { counter: 12 })).body.code).toBe(0);
    });

    it('counts wrong assertions on the second-factor counter up to the lock (40004)', async () => {
      const { credential } = await userWithPasskey('pk-lock');
      const other = newCredential();
      const codes: number[] = [];
      for (let i = 0; i < 5; i++)
        codes.push((await passkeyLogin(credential, { signWith: other.privateKey })).body.code);
      expect(codes).toEqual([40035, 40035, 40035, 40035, 40004]);
      expect((await passkeyLogin(credential)).body.code).toBe(40004);
      // The password login is locked too (the second factor's lock, contract §10).
      expect(
        (await post(t, '/api/v1/auth/login', { account: 'pk-lock', password: TEST_USER_PASSWORD })).body.code,
      ).toBe(40004);
    });

    it('refuses a disabled user’s passkey (40005) and a deleted user’s (40035)', async () => {
      const disabled = await userWithPasskey('pk-disabled');
      const deleted = await userWithPasskey('pk-deleted');
      const admin = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
      await passwordReauth(admin, TEST_ADMIN_PASSWORD);
      expect(
        (await call(admin, 'PUT', `/api/v1/sys/user/${disabled.userId}/enabled`, { enabled: false })).body
          .code,
      ).toBe(0);
      expect((await passkeyLogin(disabled.credential)).body.code).toBe(40005);
      expect((await call(disabled.token, 'GET', PERSONAL)).status).toBe(401);
      expect((await call(admin, 'DELETE', `/api/v1/sys/user/${deleted.userId}`)).body.code).toBe(0);
      expect((await passkeyLogin(deleted.credential)).body.code).toBe(40035);
      expect((await call(deleted.token, 'GET', PERSONAL)).status).toBe(401);
    });

    it('answers unknown and another user’s ids as missing, on the personal and the admin routes', async () => {
      const a = await userWithPasskey('pk-ids-a');
      const b = await userWithPasskey('pk-ids-b');
      expect((await call(a.token, 'PUT', `${PERSONAL}/${b.passkeyId}`, { name: 'mine' })).body.code).toBe(
        40038,
      );
      expect((await call(a.token, 'PUT', `${PERSONAL}/999999`, { name: 'mine' })).body.code).toBe(40038);
      await passwordReauth(a.token);
      expect((await call(a.token, 'DELETE', `${PERSONAL}/${b.passkeyId}`)).body.code).toBe(40038);
      expect((await call(a.token, 'DELETE', `${PERSONAL}/999999`)).body.code).toBe(40038);
      expect((await call(b.token, 'GET', PERSONAL)).body.data).toHaveLength(1);

      await grantPermissions(t, { account: 'pk-admin', permissions: [ADMIN_LIST, ADMIN_DELETE] });
      const admin = (await login(t, 'pk-admin', TEST_USER_PASSWORD)).accessToken;
      const list = await call(admin, 'GET', `/api/v1/sys/user/${b.userId}/passkeys`);
      expect(list.body.data.map((p: { id: number }) => p.id)).toEqual([b.passkeyId]);
      expect((await call(admin, 'GET', '/api/v1/sys/user/999999/passkeys')).body.code).toBe(42001);
      // A's passkey named under B: missing.
      expect(
        (await call(admin, 'DELETE', `/api/v1/sys/user/${b.userId}/passkeys/${a.passkeyId}`)).body.code,
      ).toBe(40038);
      // The super admin is out of an administrator's reach (rank rule).
      expect((await call(admin, 'GET', '/api/v1/sys/user/1/passkeys')).body.code).toBe(42007);
      const plain = (await login(t, 'pk-ids-a', TEST_USER_PASSWORD)).accessToken;
      expect((await call(plain, 'GET', `/api/v1/sys/user/${b.userId}/passkeys`)).body.code).toBe(41001);
    });

    it('an administrator’s removal, and an MFA clear, revoke: the sessions end and the passkey no longer opens', async () => {
      const removed = await userWithPasskey('pk-revoke-a');
      const cleared = await userWithPasskey('pk-revoke-b');
      const admin = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
      await passwordReauth(admin, TEST_ADMIN_PASSWORD);
      const del = await call(
        admin,
        'DELETE',
        `/api/v1/sys/user/${removed.userId}/passkeys/${removed.passkeyId}`,
      );
      expect(del.body.code).toBe(0);
      expect((await call(removed.token, 'GET', PERSONAL)).status).toBe(401);
      expect((await passkeyLogin(removed.credential)).body.code).toBe(40035);
      expect((await call(admin, 'POST', '/api/v1/sys/mfa/clear', { userId: cleared.userId })).body.code).toBe(
        0,
      );
      expect((await call(cleared.token, 'GET', PERSONAL)).status).toBe(401);
      expect((await passkeyLogin(cleared.credential)).body.code).toBe(40035);
      const relog = (await login(t, 'pk-revoke-b', TEST_USER_PASSWORD)).accessToken;
      expect((await call(relog, 'GET', PERSONAL)).body.data).toEqual([]);
    });

    it('a user purged from the recycle bin takes their passkeys along; a soft delete keeps them for a restore', async () => {
      const gone = await userWithPasskey('pk-purge-a');
      const kept = await userWithPasskey('pk-purge-b');
      const passkeys = t.server.modules.servicesOf(passkeyModule).passkeys;
      const admin = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
      await passwordReauth(admin, TEST_ADMIN_PASSWORD);
      expect((await call(admin, 'DELETE', `/api/v1/sys/user/${gone.userId}`)).body.code).toBe(0);
      expect(await passkeys.list(gone.userId)).toHaveLength(1);
      expect((await call(admin, 'DELETE', `/api/v1/sys/recycle/user/${gone.userId}`)).body.code).toBe(0);
      expect(
        await t.server.database.repos.users.findById(gone.userId, { includeDeleted: true }),
      ).toBeUndefined();
      expect(await passkeys.list(gone.userId)).toEqual([]);
      expect((await passkeyLogin(gone.credential)).body.code).toBe(40035);
      expect(await passkeys.list(kept.userId)).toHaveLength(1);
    });

    it('refuses bad bodies with 48000 and never crashes', async () => {
      expect((await call(null, 'POST', LOGIN, { challengeId: 'x', response: { id: 'a' } })).body.code).toBe(
        48000,
      );
      expect((await call(null, 'POST', LOGIN, {})).body.code).toBe(48000);
      const { challengeId } = await loginOptions();
      const garbage = {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
        clientExtensionResults: {},
      };
      expect((await call(null, 'POST', LOGIN, { challengeId, response: garbage })).body.code).toBe(40035);
    });
  });

  describe(`module Passkey off on ${dbType} with ${cache}`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({ dbType, cache, env: { Service__Api__DisabledModules__0: 'Passkey' } });
    });
    afterAll(() => t?.close());

    it('purges a user from the recycle bin as before (its table was never made)', async () => {
      const userId = await addUser(t, { account: 'pk-off-purge' });
      const admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
      const del = async (path: string) =>
        (await (await t.request(path, { method: 'DELETE', headers: admin })).json()) as Body;
      expect((await del(`/api/v1/sys/user/${userId}`)).code).toBe(0);
      expect((await del(`/api/v1/sys/recycle/user/${userId}`)).code).toBe(0);
      expect(await t.server.database.repos.users.findById(userId, { includeDeleted: true })).toBeUndefined();
    });
  });
}
