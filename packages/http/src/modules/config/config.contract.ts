/**
 * Config centre, dictionaries and cache actions over HTTP: values validated by the key's type, immutable keys,
 * batch all-or-nothing, the anonymous whitelisted site info following changes at once, the cached dictionary
 * read and its invalidation, the four cache actions with their counts, module removal.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, login } from '../../testing/auth.js';
import {
  grantPermissions,
  setRuntimeConfig,
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../testing/index.js';

export function defineConfigContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`config, dictionaries and cache actions on ${dbType} with ${cache}`, () => {
    let t: TestServer;
    let admin: Record<string, string>;
    beforeAll(async () => {
      t = await startTestServer({ dbType, cache });
      admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
    });
    afterAll(() => t?.close());

    const call = async (path: string, init: RequestInit & { json?: unknown } = {}) =>
      json(
        await t.request(path, {
          ...init,
          headers: { ...admin, ...(init.headers as Record<string, string>) },
        }),
      );
    const configRow = async (key: string) => {
      const page = await call(`/api/v1/sys/config/page?key=${encodeURIComponent(key)}`);
      return page.data.items.find((r: { key: string }) => r.key === key);
    };

    it('refuses values that do not fit the key type, so login settings cannot be broken', async () => {
      const lock = await configRow('sys.security.loginLock.lockMinutes');
      const bad = await call(`/api/v1/sys/config/${lock.id}`, { method: 'PUT', json: { value: 'soon' } });
      expect(bad).toMatchObject({ code: 48000 });
      expect(bad.args.errors[0].path).toBe('value');
      expect(
        (await call(`/api/v1/sys/config/${lock.id}`, { method: 'PUT', json: { value: '0' } })).code,
      ).toBe(48000);
      const captcha = await configRow('sys.security.captcha.enabled');
      expect(
        (await call(`/api/v1/sys/config/${captcha.id}`, { method: 'PUT', json: { value: 'maybe' } })).code,
      ).toBe(48000);
      const type = await configRow('sys.security.captcha.type');
      expect(
        (await call(`/api/v1/sys/config/${type.id}`, { method: 'PUT', json: { value: 'emoji' } })).code,
      ).toBe(48000);
      expect(
        (await call(`/api/v1/sys/config/${type.id}`, { method: 'PUT', json: { value: 'MATH' } })).code,
      ).toBe(0);
      expect((await call(`/api/v1/sys/config/${type.id}`)).data.value).toBe('math');
      // The rows say what a write is checked against, so a console offers only values that pass.
      expect(type).toMatchObject({
        valueType: 'enum',
        values: ['char', 'path', 'math'],
        min: null,
        max: null,
      });
      expect(lock).toMatchObject({ valueType: 'int', values: null, min: 1, max: 1_000_000_000 });
      expect(await configRow('sys.security.password.minLength')).toMatchObject({ min: 1, max: 128 });
      expect(captcha).toMatchObject({ valueType: 'bool', values: null, min: null, max: null });
      // Login still works: nothing invalid was stored.
      expect((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken).toBeTruthy();
    });

    it('takes an int value only as plain decimal digits with an optional sign (48000 for 1e3, 0x10, " 60 ", …)', async () => {
      const bad = [
        '1e3',
        '0x10',
        ' 60 ',
        '60 ',
        '\t60',
        '60.0',
        '1_000',
        '',
        '+',
        '9007199254740993',
        '１２',
      ];
      const minLength = await configRow('sys.security.password.minLength');
      const custom = await call('/api/v1/sys/config', {
        method: 'POST',
        json: { key: 'app.int.form', value: '5', name: 'Form', valueType: 'int' },
      });
      expect(custom.code).toBe(0);
      for (const value of bad) {
        const put = await call(`/api/v1/sys/config/${minLength.id}`, { method: 'PUT', json: { value } });
        expect({ value, code: put.code, path: put.args?.errors?.[0]?.path }).toEqual({
          value,
          code: 48000,
          path: 'value',
        });
        expect(put.args.errors[0].message).toContain('no spaces');
        const batch = await call('/api/v1/sys/config/batch', {
          method: 'PUT',
          json: [{ key: 'app.int.form', value }],
        });
        expect({ value, code: batch.code }).toEqual({ value, code: 48000 });
        const created = await call('/api/v1/sys/config', {
          method: 'POST',
          json: { key: 'app.int.created', value, name: 'x', valueType: 'int' },
        });
        expect({ value, code: created.code }).toEqual({ value, code: 48000 });
      }
      expect((await configRow('sys.security.password.minLength')).value).toBe(minLength.value);
      expect((await configRow('app.int.form')).value).toBe('5');
      expect(await configRow('app.int.created')).toBeUndefined();
      // Signs are digits' own: `+12` is stored as 12.
      await call(`/api/v1/sys/config/${custom.data.id}`, { method: 'PUT', json: { value: '+12' } });
      expect((await configRow('app.int.form')).value).toBe('12');
      // A row holding such text anyway (written straight into the table) reads as the default, not as 12 or 1000.
      const policy = async () => (await call('/api/v1/sys/config/password-policy')).data.minLength;
      const before = await policy();
      for (const stored of [' 12 ', '1e1']) {
        await setRuntimeConfig(t, 'sys.security.password.minLength', stored);
        expect({ stored, minLength: await policy() }).toEqual({ stored, minLength: 8 });
      }
      await setRuntimeConfig(t, 'sys.security.password.minLength', minLength.value);
      expect(await policy()).toBe(before);
    });

    it('keeps the anonymous logo address to one that runs nothing, also for a row written past the routes', async () => {
      const logo = await configRow('sys.site.logoUrl');
      const refused = await call(`/api/v1/sys/config/${logo.id}`, {
        method: 'PUT',
        json: { value: 'javascript:alert(document.cookie)' },
      });
      expect(refused).toMatchObject({ code: 48000 });
      expect(refused.args.errors[0].message).toContain('http(s) URL');
      expect(
        (await call(`/api/v1/sys/config/${logo.id}`, { method: 'PUT', json: { value: '/static/logo.png' } }))
          .code,
      ).toBe(0);
      expect((await json(await t.request('/api/v1/sys/config/site'))).data.logoUrl).toBe('/static/logo.png');
      // A row that holds a script address anyway (written before the rule, or straight into the table) is
      // served as the default, never as stored.
      await setRuntimeConfig(t, 'sys.site.logoUrl', 'javascript:alert(1)');
      expect((await json(await t.request('/api/v1/sys/config/site'))).data.logoUrl).toBe('');
      expect((await call(`/api/v1/sys/config/${logo.id}`, { method: 'PUT', json: { value: '' } })).code).toBe(
        0,
      );
    });

    it('keeps the key immutable and rejects unknown body properties', async () => {
      const row = await configRow('sys.site.footer');
      const moved = await call(`/api/v1/sys/config/${row.id}`, {
        method: 'PUT',
        json: { key: 'sys.other', value: 'x' },
      });
      expect(moved.code).toBe(48000);
      expect(moved.args.errors[0].path).toBe('key');
      expect((await call(`/api/v1/sys/config/${row.id}`, { method: 'PUT', json: { foo: 1 } })).code).toBe(
        48000,
      );
      expect((await call(`/api/v1/sys/config/${row.id}`)).data).toMatchObject({
        key: 'sys.site.footer',
        value: '',
      });
      expect((await call('/api/v1/sys/config/999999')).code).toBe(43004);
      expect((await call('/api/v1/sys/config/abc')).code).toBe(48000);
    });

    it('creates consumer keys (43005 on a duplicate), deletes them, refuses deleting built-in keys (43006)', async () => {
      const created = await call('/api/v1/sys/config', {
        method: 'POST',
        json: { key: 'app.feature.limit', value: '12', name: 'Limit', valueType: 'int' },
      });
      expect(created.code).toBe(0);
      expect(
        (
          await call('/api/v1/sys/config', {
            method: 'POST',
            json: { key: 'app.feature.limit', value: '1', name: 'x' },
          })
        ).code,
      ).toBe(43005);
      const id = created.data.id;
      // A consumer key has no kernel definition: nothing beyond its type is known of it.
      expect(await configRow('app.feature.limit')).toMatchObject({
        valueType: 'int',
        values: null,
        min: null,
      });
      expect(
        (await call(`/api/v1/sys/config/${id}`, { method: 'PUT', json: { value: 'twelve' } })).code,
      ).toBe(48000);
      expect((await call(`/api/v1/sys/config/${id}`, { method: 'DELETE' })).code).toBe(0);
      expect((await call(`/api/v1/sys/config/${id}`)).code).toBe(43004);
      const builtIn = await configRow('sys.security.password.minLength');
      expect((await call(`/api/v1/sys/config/${builtIn.id}`, { method: 'DELETE' })).code).toBe(43006);
    });

    // The external-login switches decide who becomes a user and with which roles: no rank or scope check could
    // follow a role given that way, so only the super admin writes them, through every write route.
    it('lets only the super admin write the external-login switches (41001 super-admin-key), in any spelling', async () => {
      await grantPermissions(t, {
        account: 'config_editor',
        permissions: [
          'POST:/api/v1/sys/config',
          'PUT:/api/v1/sys/config/{id}',
          'PUT:/api/v1/sys/config/batch',
          'DELETE:/api/v1/sys/config/{id}',
          'POST:/api/v1/sys/recycle/{type}/{id}/restore',
        ],
      });
      const editor = bearer((await login(t, 'config_editor', TEST_USER_PASSWORD)).accessToken);
      const as = (path: string, method: string, body: unknown) =>
        t.request(path, { method, json: body, headers: editor }).then(json);
      const refused = { code: 41001, args: { reason: 'super-admin-key' } };
      for (const key of [
        'sys.externalauth.corp.defaultRoleIds',
        'SYS.ExternalAuth.corp.provisioning',
        ' sys.externalauth.x.linkByAccount',
      ])
        expect(await as('/api/v1/sys/config', 'POST', { key, value: '1', name: 'x' }), key).toMatchObject(
          refused,
        );
      const row = await call('/api/v1/sys/config', {
        method: 'POST',
        json: { key: 'sys.externalauth.corp.defaultRoleIds', value: '', name: 'Roles' },
      });
      expect(row.code).toBe(0);
      expect(await as(`/api/v1/sys/config/${row.data.id}`, 'PUT', { value: '1' })).toMatchObject(refused);
      expect(
        await as('/api/v1/sys/config/batch', 'PUT', [
          { key: 'app.other', value: 'x' },
          { key: 'sys.externalauth.corp.defaultRoleIds', value: '1' },
        ]),
      ).toMatchObject(refused);
      expect((await configRow('sys.externalauth.corp.defaultRoleIds')).value).toBe('');
      // Other keys stay the editor's; the super admin writes these.
      expect(
        (await as('/api/v1/sys/config', 'POST', { key: 'app.editor.key', value: '1', name: 'x' })).code,
      ).toBe(0);
      expect(
        (await call(`/api/v1/sys/config/${row.data.id}`, { method: 'PUT', json: { value: '1' } })).code,
      ).toBe(0);
      // Bringing a deleted value back from the recycle bin is writing it.
      expect((await call(`/api/v1/sys/config/${row.data.id}`, { method: 'DELETE' })).code).toBe(0);
      const restore = `/api/v1/sys/recycle/config/${row.data.id}/restore`;
      expect(await as(restore, 'POST', undefined)).toMatchObject(refused);
      expect((await call(`/api/v1/sys/config/${row.data.id}`)).code).toBe(43004);
      expect((await call(restore, { method: 'POST' })).code).toBe(0);
      expect((await configRow('sys.externalauth.corp.defaultRoleIds')).value).toBe('1');
    });

    it('applies a batch all-or-nothing and the anonymous site info follows at once', async () => {
      const failed = await call('/api/v1/sys/config/batch', {
        method: 'PUT',
        json: [
          { key: 'sys.site.title', value: 'Never' },
          { key: 'sys.security.smsLogin.enabled', value: 'perhaps' },
        ],
      });
      expect(failed.code).toBe(48000);
      expect(failed.args.errors[0].path).toBe('1.value');
      expect((await json(await t.request('/api/v1/sys/config/site'))).data.title).not.toBe('Never');
      const done = await call('/api/v1/sys/config/batch', {
        method: 'PUT',
        json: [
          { key: 'sys.site.title', value: 'Ops Console' },
          { key: 'sys.security.smsLogin.enabled', value: 'TRUE' },
        ],
      });
      expect(done).toMatchObject({ code: 0, data: { updated: 2 } });
      const site = await json(await t.request('/api/v1/sys/config/site'));
      expect(site.data).toEqual({
        title: 'Ops Console',
        logoUrl: '',
        footer: '',
        captchaEnabled: false,
        captchaType: 'math',
        smsLoginEnabled: true,
        features: { passkey: false },
      });
      expect(
        (await call('/api/v1/sys/config/batch', { method: 'PUT', json: [{ key: 'nope', value: '1' }] })).code,
      ).toBe(43004);
    });

    it('carries the passkey flag of module Passkey: the runtime switch shows at once, off with the module off', async () => {
      const features = async (server: TestServer) =>
        (await json(await server.request('/api/v1/sys/config/site'))).data.features;
      const flip = async (value: string) =>
        expect(
          (
            await call('/api/v1/sys/config/batch', {
              method: 'PUT',
              json: [{ key: 'sys.security.passkey.enabled', value }],
            })
          ).code,
        ).toBe(0);
      // Built and cached first, then each flip drops the cached answer.
      expect(await features(t)).toEqual({ passkey: false });
      await flip('true');
      expect(await features(t)).toEqual({ passkey: true });
      expect(await features(t)).toEqual({ passkey: true });
      await flip('false');
      expect(await features(t)).toEqual({ passkey: false });

      // Module Passkey off: no flag (off for the login page), whatever the switch says.
      const off = await startTestServer({
        dbType,
        cache,
        env: { Service__Api__DisabledModules__0: 'Passkey' },
      });
      try {
        await setRuntimeConfig(off, 'sys.security.passkey.enabled', 'true');
        expect(await features(off)).toEqual({});
      } finally {
        await off.close();
      }
      // The deploy floor keeps passkeys on whatever the switch says, as the ceremonies answer.
      const floor = await startTestServer({
        dbType,
        cache,
        env: { Service__Security__Passkey__Enabled: 'true' },
      });
      try {
        expect(await features(floor)).toEqual({ passkey: true });
        expect(
          (await json(await floor.request('/api/v1/auth/passkey/options', { method: 'POST' }))).code,
        ).toBe(0);
      } finally {
        await floor.close();
      }
    });

    it('answers the password policy to a bearer only', async () => {
      expect((await t.request('/api/v1/sys/config/password-policy')).status).toBe(401);
      const policy = await call('/api/v1/sys/config/password-policy');
      expect(policy.data).toMatchObject({ minLength: 8, requireUpper: true, historyCount: 0 });
    });

    it('serves dictionary items to any logged-in user from a cache that writes invalidate', async () => {
      const type = await call('/api/v1/sys/dict/type', {
        method: 'POST',
        json: { code: 'color', name: 'Colour' },
      });
      expect(type.code).toBe(0);
      expect(
        (await call('/api/v1/sys/dict/type', { method: 'POST', json: { code: 'color', name: 'x' } })).code,
      ).toBe(43002);
      const red = await call('/api/v1/sys/dict/item', {
        method: 'POST',
        json: { typeId: type.data.id, label: 'Red', value: 'r', sort: 2 },
      });
      await call('/api/v1/sys/dict/item', {
        method: 'POST',
        json: { typeId: type.data.id, label: 'Blue', value: 'b', sort: 1 },
      });
      await grantPermissions(t, { account: 'reader', permissions: [] });
      const reader = bearer((await login(t, 'reader', TEST_USER_PASSWORD)).accessToken);
      const read = async () => json(await t.request('/api/v1/sys/dict/items/color', { headers: reader }));
      expect((await read()).data).toEqual([
        { label: 'Blue', value: 'b', sort: 1 },
        { label: 'Red', value: 'r', sort: 2 },
      ]);
      expect((await t.request('/api/v1/sys/dict/items/color')).status).toBe(401);
      // A change behind the service's back stays invisible: the answer is cached …
      const { db, tables } = t.server.database.database;
      await db.update(tables.sysDictItem).set({ label: 'Crimson' }).where(undefined);
      expect((await read()).data.map((i: { label: string }) => i.label)).toEqual(['Blue', 'Red']);
      // … until a write through the service raises DictChangedEvent.
      await call(`/api/v1/sys/dict/item/${red.data.id}`, { method: 'PUT', json: { enabled: false } });
      expect((await read()).data).toEqual([{ label: 'Crimson', value: 'b', sort: 1 }]);
      expect((await call('/api/v1/sys/dict/item/999999', { method: 'PUT', json: { label: 'x' } })).code).toBe(
        43003,
      );
      expect((await call(`/api/v1/sys/dict/type/${type.data.id}`, { method: 'DELETE' })).code).toBe(0);
      expect((await read()).data).toEqual([]);
      expect((await call('/api/v1/sys/dict/item/page?typeCode=gender')).data.total).toBe(3);
    });

    it('flushes permissions (counting entries, keeping counters), dictionaries, config, and bumps the portal generation', async () => {
      await grantPermissions(t, { account: 'viewer', permissions: ['GET:/api/v1/sys/log/op/page'] });
      const viewer = bearer((await login(t, 'viewer', TEST_USER_PASSWORD)).accessToken);
      expect((await t.request('/api/v1/sys/log/op/page', { headers: viewer })).status).toBe(200);
      // Revoke behind the service's back: the cached codes still allow …
      const { db, tables } = t.server.database.database;
      await db.update(tables.sysMenu).set({ enabled: false }).where(undefined);
      expect((await t.request('/api/v1/sys/log/op/page', { headers: viewer })).status).toBe(200);
      const auth = await call('/api/v1/sys/cache/flush-auth', { method: 'POST' });
      expect(auth.code).toBe(0);
      expect(auth.data.cleared).toBeGreaterThanOrEqual(1);
      // … until the flush: the next request reloads and is refused.
      expect((await t.request('/api/v1/sys/log/op/page', { headers: viewer })).status).toBe(403);
      await db.update(tables.sysMenu).set({ enabled: true }).where(undefined);

      await call('/api/v1/sys/dict/items/gender');
      expect(
        (await call('/api/v1/sys/cache/flush-dict', { method: 'POST' })).data.cleared,
      ).toBeGreaterThanOrEqual(1);
      await json(await t.request('/api/v1/sys/config/site'));
      expect(
        (await call('/api/v1/sys/cache/flush-config', { method: 'POST' })).data.cleared,
      ).toBeGreaterThanOrEqual(2);
      const first = (await call('/api/v1/sys/cache/rebuild-portal', { method: 'POST' })).data.generation;
      expect((await call('/api/v1/sys/cache/rebuild-portal', { method: 'POST' })).data.generation).toBe(
        first + 1,
      );
    });

    it('answers the server snapshot to holders of its code only', async () => {
      await grantPermissions(t, { account: 'nobody', permissions: [] });
      const nobody = bearer((await login(t, 'nobody', TEST_USER_PASSWORD)).accessToken);
      expect((await t.request('/api/v1/sys/monitor/server', { headers: nobody })).status).toBe(403);
      const snap = await call('/api/v1/sys/monitor/server');
      expect(snap.code).toBe(0);
      expect(snap.data.cpuPercent).toBeGreaterThanOrEqual(0);
      expect(snap.data.memory.totalBytes).toBeGreaterThan(snap.data.memory.freeBytes);
      expect(snap.data.disk.totalBytes).toBeGreaterThan(0);
      expect(snap.data.runtime.name).toBe('node');
      expect(snap.data.processorCount).toBeGreaterThanOrEqual(1);
      expect(snap.data.opLog).toMatchObject({ spilled: 0, dropped: 0, failing: false });
      expect(Object.keys(snap.data).sort()).toEqual(
        [
          'cpuPercent',
          'disk',
          'machineName',
          'memory',
          'opLog',
          'osDescription',
          'processorCount',
          'runtime',
          'sampledAt',
        ].sort(),
      );
    });

    it('removes disabled modules from the API and the contract', async () => {
      const off = await startTestServer({
        dbType,
        cache,
        env: { Service__Api__DisabledModules__0: 'Config', Service__Api__DisabledModules__1: 'Upload' },
      });
      try {
        expect((await off.request('/api/v1/sys/config/site')).status).toBe(404);
        const doc = await json(await off.request('/openapi/v1.json'));
        expect(Object.keys(doc.paths).some((p) => p.startsWith('/api/v1/sys/config'))).toBe(false);
        expect(Object.keys(doc.paths).some((p) => p.startsWith('/api/v1/sys/file'))).toBe(false);
        expect(Object.keys(doc.paths)).toContain('/api/v1/sys/dict/items/{typeCode}');
      } finally {
        await off.close();
      }
    });

    it('flushes dictionaries and config while modules Dict and Config are off (Cache uses them only when on)', async () => {
      const off = await startTestServer({
        dbType,
        cache,
        env: { Service__Api__DisabledModules__0: 'Config', Service__Api__DisabledModules__1: 'Dict' },
      });
      try {
        const headers = bearer((await login(off, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
        const flush = async (what: string) =>
          json(await off.request(`/api/v1/sys/cache/flush-${what}`, { method: 'POST', headers }));
        // No dictionary copy lives on an instance without module Dict.
        expect(await flush('dict')).toMatchObject({ code: 0, data: { cleared: 0 } });
        const config = await flush('config');
        expect(config.code).toBe(0);
        expect(config.data.cleared).toEqual(expect.any(Number));
        expect((await off.request('/api/v1/sys/dict/items/gender', { headers })).status).toBe(404);
      } finally {
        await off.close();
      }
    });
  });
}
