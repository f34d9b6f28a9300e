/**
 * Machine callers over HTTP: API-key-only routes, key + permission, either scheme, and the skip-envelope
 * marker. The routes mirror the reference host's samples, registered as a consumer would.
 */
import type { DbType } from '@svc/kernel';
import { ok } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateAppOptions } from '../app.js';
import { createRoute, z } from '../index.js';
import { registerRoute } from '../openapi/register.js';
import { envelopeResponses } from '../openapi/schemas.js';
import { bearer, json, login } from '../testing/auth.js';
import { grantPermissions, startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/index.js';
import { requirePrincipal } from './principal.js';

const UNBOUND_KEY = 'u'.repeat(40);
const BOUND_KEY = 'b'.repeat(40);
const PERM_CODE = 'GET:/api/v1/test/machine/perm';
const any = z.object({ name: z.string(), userId: z.number().nullable() });

const configure: NonNullable<CreateAppOptions['configure']> = (ctx) => {
  const who = (c: Parameters<Parameters<typeof registerRoute>[3]>[0]) => {
    const p = requirePrincipal(c);
    return p.kind === 'apikey' ? { name: p.name, userId: p.userId } : { name: p.account, userId: p.userId };
  };
  const get = (path: string) => createRoute({ method: 'get', path, responses: envelopeResponses(any) });
  registerRoute(ctx, get('/api/v1/test/machine'), { auth: 'apikey' }, (c) => c.json(ok(who(c)), 200));
  registerRoute(ctx, get('/api/v1/test/machine/perm'), { auth: 'apikey-permission' }, (c) =>
    c.json(ok(who(c)), 200),
  );
  registerRoute(ctx, get('/api/v1/test/either'), { auth: 'either' }, (c) => c.json(ok(who(c)), 200));
  registerRoute(
    ctx,
    createRoute({
      method: 'get',
      path: '/api/v1/test/bare',
      responses: {
        200: {
          description: 'bare',
          content: { 'application/json': { schema: z.object({ value: z.number() }) } },
        },
      },
    }),
    { auth: 'authenticated', skipEnvelope: true },
    (c) => c.json({ value: 42 }, 200),
  );
};

const KEY_ENV = {
  Service__Security__ApiKey__Keys__0__Name: 'unbound-job',
  Service__Security__ApiKey__Keys__0__Key: UNBOUND_KEY,
  Service__Security__ApiKey__Keys__1__Name: 'bound-job',
  Service__Security__ApiKey__Keys__1__Key: BOUND_KEY,
  Service__Security__ApiKey__Keys__1__UserId: '2',
};

/** Every key route as the bound key reaches it: status of `apikey`, `apikey-permission` and `either`. */
async function keyStatuses(t: TestServer): Promise<number[]> {
  const headers = { 'x-api-key': BOUND_KEY };
  const answers = await Promise.all(
    ['/api/v1/test/machine', '/api/v1/test/machine/perm', '/api/v1/test/either'].map((path) =>
      t.request(path, { headers }),
    ),
  );
  const codes = await Promise.all(answers.map(async (res) => (await json(res)).code));
  return answers.map((res, i) => (res.status === 401 && codes[i] === 40027 ? 401 : res.status));
}

export function defineMachineContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`API keys on ${dbType} with ${cache}`, () => {
    let t: TestServer;
    let boundUserId: number;
    beforeAll(async () => {
      t = await startTestServer({
        dbType,
        cache,
        configure,
        seedMenus: [{ id: 9900, type: 'button', title: 'test', permissions: [PERM_CODE] }],
        env: KEY_ENV,
      });
      boundUserId = await grantPermissions(t, { account: 'robot', permissions: [PERM_CODE] });
    });
    afterAll(() => t?.close());

    const key = (value: string) => ({ 'x-api-key': value });

    it('binds the configured key to the user the test created', () => {
      expect(boundUserId).toBe(2);
    });

    it('accepts only the API key on key routes: JWT, wrong or missing key → 401 with 40027', async () => {
      const ok1 = await t.request('/api/v1/test/machine', { headers: key(UNBOUND_KEY) });
      expect(ok1.status).toBe(200);
      expect((await json(ok1)).data).toEqual({ name: 'unbound-job', userId: null });
      const admin = await login(t, 'superAdmin', TEST_ADMIN_PASSWORD);
      for (const headers of [bearer(admin.accessToken), key('x'.repeat(40)), key(`${UNBOUND_KEY}x`), {}]) {
        const res = await t.request('/api/v1/test/machine', { headers });
        expect(res.status).toBe(401);
        expect((await json(res)).code).toBe(40027);
      }
    });

    it('key + permission: 403 for an unbound key, 200 for a key bound to a user holding the code', async () => {
      const unbound = await t.request('/api/v1/test/machine/perm', { headers: key(UNBOUND_KEY) });
      expect(unbound.status).toBe(403);
      expect((await json(unbound)).code).toBe(41001);
      const bound = await t.request('/api/v1/test/machine/perm', { headers: key(BOUND_KEY) });
      expect(bound.status).toBe(200);
      expect((await json(bound)).data).toEqual({ name: 'bound-job', userId: 2 });
    });

    it('either scheme: a key or a bearer session', async () => {
      const admin = await login(t, 'superAdmin', TEST_ADMIN_PASSWORD);
      expect(
        (await json(await t.request('/api/v1/test/either', { headers: key(UNBOUND_KEY) }))).data.name,
      ).toBe('unbound-job');
      expect(
        (await json(await t.request('/api/v1/test/either', { headers: bearer(admin.accessToken) }))).data
          .name,
      ).toBe('superAdmin');
      expect((await t.request('/api/v1/test/either')).status).toBe(401);
    });

    it('skip-envelope answers the bare payload on success and the envelope on failure', async () => {
      const admin = await login(t, 'superAdmin', TEST_ADMIN_PASSWORD);
      expect(
        await json(await t.request('/api/v1/test/bare', { headers: bearer(admin.accessToken) })),
      ).toEqual({ value: 42 });
      const denied = await t.request('/api/v1/test/bare');
      expect(denied.status).toBe(401);
      expect((await json(denied)).code).toBe(40006);
    });

    it('a key bound to a user stops on every key route when the user is disabled or deleted (401, 40027)', async () => {
      const admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
      const set = async (path: string, method: string, body?: unknown) =>
        expect((await json(await t.request(path, { method, headers: admin, json: body }))).code).toBe(0);
      // Warm every cache first: the refusal must not wait for an expiry.
      expect(await keyStatuses(t)).toEqual([200, 200, 200]);
      await set(`/api/v1/sys/user/${boundUserId}/enabled`, 'PUT', { enabled: false });
      expect(await keyStatuses(t)).toEqual([401, 401, 401]);
      await set(`/api/v1/sys/user/${boundUserId}/enabled`, 'PUT', { enabled: true });
      expect(await keyStatuses(t)).toEqual([200, 200, 200]);
      await set(`/api/v1/sys/user/${boundUserId}`, 'DELETE');
      expect(await keyStatuses(t)).toEqual([401, 401, 401]);
      // The unbound key is not affected.
      expect((await t.request('/api/v1/test/machine', { headers: key(UNBOUND_KEY) })).status).toBe(200);
    });

    if (cache === 'Redis') {
      it('a disable on one instance stops the key on another at its next request', async () => {
        const env = {
          ...KEY_ENV,
          Service__Cache__Redis__KeyPrefix: `svc-keys-${Math.random().toString(36).slice(2, 10)}:`,
        };
        const a = await startTestServer({ dbType, cache, configure, env });
        const b = await startTestServer({
          dbType,
          cache,
          configure,
          env,
          reuse: { database: a.database, contentRoot: a.contentRoot },
        });
        try {
          const userId = await grantPermissions(a, { account: 'robot', permissions: [PERM_CODE] });
          expect(await keyStatuses(b)).toEqual([200, 200, 200]);
          const admin = bearer((await login(a, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
          const off = await a.request(`/api/v1/sys/user/${userId}/enabled`, {
            method: 'PUT',
            headers: admin,
            json: { enabled: false },
          });
          expect((await json(off)).code).toBe(0);
          expect(await keyStatuses(b)).toEqual([401, 401, 401]);
        } finally {
          await b.stop();
          await a.close();
        }
      });
    }

    it('shows the markers in the contract', async () => {
      const doc = await json(await t.request('/openapi/v1.json'));
      expect(doc.paths['/api/v1/test/machine'].get['x-auth']).toBe('apikey');
      expect(doc.paths['/api/v1/test/machine/perm'].get).toMatchObject({
        'x-auth': 'apikey',
        'x-permission-code': PERM_CODE,
      });
      expect(doc.paths['/api/v1/test/bare'].get['x-skip-envelope']).toBe(true);
      expect(doc.paths['/api/v1/ping'].get['x-auth']).toBe('authenticated');
      expect(doc.paths['/api/v1/auth/login'].post['x-auth']).toBe('anonymous');
    });
  });
}
