/**
 * Data scope over HTTP (contract §4) on each of the five types — All, own Org, Org and children, Self, Custom —
 * through the user list (and its total), detail, update, delete and mixed batches (refused as a whole); a row
 * outside the scope answers byte for byte as a missing one (contract §11: users, organisations, sessions, role
 * members, the import check of an account); the widest of several roles wins; a role change applies on the next request; an API key bound to a
 * user gets that user's scope in a consumer route, an unbound key an empty one. Forcing out the super admin's
 * session answers a caller who cannot list it as any session outside the scope does.
 */
import type { DbType } from '@svc/kernel';
import { ok } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreateAppOptions } from '../../app.js';
import { createRoute, z } from '../../index.js';
import { registerRoute } from '../../openapi/register.js';
import { envelopeResponses } from '../../openapi/schemas.js';
import { requirePrincipal } from '../../security/principal.js';
import { type AdminHarness, startAdminServer } from './harness.contract.js';
import { adminModule } from './index.js';

const CODES = [
  'GET:/api/v1/sys/user/page',
  'GET:/api/v1/sys/user/{id}',
  'PUT:/api/v1/sys/user/{id}',
  'DELETE:/api/v1/sys/user/{id}',
  'POST:/api/v1/sys/user/batch-delete',
  'GET:/api/v1/sys/session/online',
  'DELETE:/api/v1/sys/session/{sessionid}',
  'PUT:/api/v1/sys/user/{id}/enabled',
  'PUT:/api/v1/sys/user/{id}/password',
  'POST:/api/v1/sys/mfa/clear',
  'PUT:/api/v1/sys/role/{id}/users',
  'GET:/api/v1/sys/org/{id}',
  'PUT:/api/v1/sys/org/{id}',
  'DELETE:/api/v1/sys/org/{id}',
  'POST:/api/v1/sys/org/{id}/copy',
  'POST:/api/v1/sys/user/import/validate',
  'POST:/api/v1/sys/user/import/commit',
  'POST:/api/v1/sys/recycle/{type}/{id}/restore',
  'DELETE:/api/v1/sys/recycle/{type}/{id}',
];

/** The answer with every occurrence of `id` (a number or a string, exact values only) replaced by a marker. */
function withoutId(value: unknown, id: number | string): unknown {
  if (value === id) return '<id>';
  if (Array.isArray(value)) return value.map((v) => withoutId(v, id));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== 'traceId')
        .map(([k, v]) => [k, withoutId(v, id)]),
    );
  return value;
}
const BOUND_KEY = 'b'.repeat(40);
const UNBOUND_KEY = 'u'.repeat(40);

/** A consumer route that applies the caller's scope to the user list, as an app would to its own tables. */
const configure: NonNullable<CreateAppOptions['configure']> = (ctx, deps) => {
  const { admin } = deps.modules.servicesOf(adminModule);
  registerRoute(
    ctx,
    createRoute({
      method: 'get',
      path: '/api/v1/test/scoped-users',
      responses: envelopeResponses(z.object({ ids: z.array(z.number()), total: z.number() })),
    }),
    { auth: 'apikey' },
    async (c) => {
      const page = await admin.users.page(admin.actorOf(requirePrincipal(c)), { size: 200 });
      return c.json(ok({ ids: page.items.map((u) => u.id).sort((a, b) => a - b), total: page.total }), 200);
    },
  );
};

export function defineScopeContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`data scope on ${dbType} with ${cache}`, () => {
    let h: AdminHarness;
    type Actor = 'all' | 'org' | 'tree' | 'self' | 'custom' | 'mixed';
    const org = {} as Record<'A' | 'A1' | 'B', number>;
    const user = {} as Record<Actor | 'keyed' | 'a' | 'a1' | 'b' | 'none', number>;
    const token = {} as Record<Actor, string>;
    const role = {} as Record<'all' | 'org' | 'tree' | 'self' | 'custom', number>;

    beforeAll(async () => {
      h = await startAdminServer(dbType, cache, {
        configure,
        env: {
          // The bound key's user is created first below, so its id is the first after the seed's admin.
          Service__Security__ApiKey__Keys__0__Name: 'bound',
          Service__Security__ApiKey__Keys__0__Key: BOUND_KEY,
          Service__Security__ApiKey__Keys__0__UserId: '2',
          Service__Security__ApiKey__Keys__1__Name: 'unbound',
          Service__Security__ApiKey__Keys__1__Key: UNBOUND_KEY,
        },
      });
      org.A = await h.org('A');
      org.A1 = await h.org('A1', org.A);
      org.B = await h.org('B');
      role.all = await h.role('scope-all', CODES, { scopeType: 1 });
      role.org = await h.role('scope-org', CODES, { scopeType: 2 });
      role.tree = await h.role('scope-tree', CODES, { scopeType: 3 });
      role.self = await h.role('scope-self', CODES, { scopeType: 4 });
      role.custom = await h.role('scope-custom', CODES, { scopeType: 5, customOrgIds: [org.B] });
      user.keyed = await h.user('keyed', { orgId: org.A, roleIds: [role.org] });
      expect(user.keyed).toBe(2);
      user.all = await h.user('actor-all', { orgId: org.A, roleIds: [role.all] });
      user.org = await h.user('actor-org', { orgId: org.A, roleIds: [role.org] });
      user.tree = await h.user('actor-tree', { orgId: org.A, roleIds: [role.tree] });
      user.self = await h.user('actor-self', { orgId: org.A, roleIds: [role.self] });
      user.custom = await h.user('actor-custom', { orgId: org.A, roleIds: [role.custom] });
      user.mixed = await h.user('actor-mixed', { orgId: org.A1, roleIds: [role.self, role.custom] });
      user.a = await h.user('in-a', { orgId: org.A });
      user.a1 = await h.user('in-a1', { orgId: org.A1 });
      user.b = await h.user('in-b', { orgId: org.B });
      user.none = await h.user('no-org', { orgId: null });
      const actors: Actor[] = ['all', 'org', 'tree', 'self', 'custom', 'mixed'];
      for (const name of actors) token[name] = await h.loginAs(`actor-${name}`);
    });
    afterAll(() => h?.close());

    const visible = async (who: Actor) => {
      const page = await h.ok('GET', '/api/v1/sys/user/page?size=200', { token: token[who] });
      expect(page.total).toBe(page.items.length);
      return new Set<number>(page.items.map((u: { id: number }) => u.id));
    };

    it('lists (items and total) only rows in scope for each of the five types, the widest of several roles winning', async () => {
      const all = await visible('all');
      for (const id of Object.values(user)) expect(all.has(id)).toBe(true);
      expect(all.has(h.adminId)).toBe(true);
      const inA = [user.keyed, user.all, user.org, user.tree, user.self, user.custom, user.a];
      expect([...(await visible('org'))].sort()).toEqual([...inA].sort());
      expect([...(await visible('tree'))].sort()).toEqual([...inA, user.mixed, user.a1].sort());
      expect([...(await visible('self'))]).toEqual([user.self]);
      expect([...(await visible('custom'))]).toEqual([user.b]);
      expect([...(await visible('mixed'))].sort()).toEqual([user.mixed, user.b].sort());
    });

    it('detail: in scope answers the row, out of scope as a missing one (42001)', async () => {
      const cases: [Actor, number, boolean][] = [
        ['org', user.a, true],
        ['org', user.a1, false],
        ['tree', user.a1, true],
        ['tree', user.b, false],
        ['self', user.self, true],
        ['self', user.a, false],
        ['custom', user.b, true],
        ['custom', user.a, false],
        ['custom', user.none, false],
        ['all', user.none, true],
      ];
      for (const [who, id, allowed] of cases) {
        const res = await h.call('GET', `/api/v1/sys/user/${id}`, { token: token[who] });
        expect(res.body.code, `${who} reads ${id}`).toBe(allowed ? 0 : 42001);
      }
    });

    it('update: out of scope 42001 and unchanged; in scope written; moving a user out of one’s scope is refused (41005)', async () => {
      const out = await h.call('PUT', `/api/v1/sys/user/${user.b}`, {
        token: token.org,
        json: { nickName: 'x' },
      });
      expect(out.body.code).toBe(42001);
      expect((await h.ok('GET', `/api/v1/sys/user/${user.b}`)).nickName).toBeNull();
      await h.ok('PUT', `/api/v1/sys/user/${user.a}`, { token: token.org, json: { nickName: 'by-org' } });
      expect((await h.ok('GET', `/api/v1/sys/user/${user.a}`)).nickName).toBe('by-org');
      const away = await h.call('PUT', `/api/v1/sys/user/${user.a}`, {
        token: token.org,
        json: { orgId: org.B },
      });
      expect(away.body.code).toBe(41005);
      expect(
        (await h.call('PUT', `/api/v1/sys/user/${user.a}`, { token: token.self, json: { nickName: 'y' } }))
          .body.code,
      ).toBe(42001);
      await h.ok('PUT', `/api/v1/sys/user/${user.b}`, {
        token: token.custom,
        json: { nickName: 'by-custom' },
      });
    });

    it('delete and batch delete: out of scope as missing (42001); a mixed batch is refused as a whole', async () => {
      const victim1 = await h.user('victim-a1', { orgId: org.A1 });
      const victim2 = await h.user('victim-a', { orgId: org.A });
      expect((await h.call('DELETE', `/api/v1/sys/user/${victim1}`, { token: token.org })).body.code).toBe(
        42001,
      );
      const mixed = await h.call('POST', '/api/v1/sys/user/batch-delete', {
        token: token.org,
        json: { ids: [victim2, victim1] },
      });
      expect(mixed.body).toMatchObject({ code: 42001, args: { ids: [victim1] } });
      expect((await h.ok('GET', `/api/v1/sys/user/${victim2}`)).id).toBe(victim2);
      expect((await h.ok('GET', `/api/v1/sys/user/${victim1}`)).id).toBe(victim1);
      await h.ok('POST', '/api/v1/sys/user/batch-delete', {
        token: token.tree,
        json: { ids: [victim2, victim1] },
      });
      expect((await h.call('GET', `/api/v1/sys/user/${victim1}`)).body.code).toBe(42001);
    });

    it('a scope change applies on the next request, and a user without roles or organisation sees nothing', async () => {
      await h.ok('PUT', `/api/v1/sys/role/${role.custom}/datascope`, {
        json: { scopeType: 5, customOrgIds: [org.A1] },
      });
      expect([...(await visible('custom'))].sort()).toEqual([user.mixed, user.a1].sort());
      await h.ok('PUT', `/api/v1/sys/role/${role.custom}/datascope`, {
        json: { scopeType: 5, customOrgIds: [org.B] },
      });
      expect(await h.ok('GET', `/api/v1/sys/role/${role.custom}/datascope`)).toEqual({
        scopeType: 5,
        customOrgIds: [org.B],
      });
      // Own-organisation scope for a user without an organisation resolves to nothing (fail closed).
      await h.user('orgless', { orgId: null, roleIds: [role.org] });
      const orgless = await h.loginAs('orgless');
      expect(await h.ok('GET', '/api/v1/sys/user/page', { token: orgless })).toMatchObject({
        total: 0,
        items: [],
      });
      expect((await h.call('GET', `/api/v1/sys/user/${user.none}`, { token: orgless })).body.code).toBe(
        42001,
      );
    });

    it('scopes the online-session list too', async () => {
      await h.loginAs('in-b');
      const sessions = await h.ok('GET', '/api/v1/sys/session/online?size=200', { token: token.org });
      const users = new Set(sessions.items.map((s: { userId: number }) => s.userId));
      expect(users.has(user.org)).toBe(true);
      expect(users.has(user.b)).toBe(false);
      expect(users.has(h.adminId)).toBe(false);
    });

    it('forced logout answers the super admin’s session like any other outside the scope (as missing, 42024), 42007 only to those who list it', async () => {
      const sessionOf = async (userId: number) =>
        (await h.ok('GET', `/api/v1/sys/session/online?userId=${userId}`)).items[0].sessionId as string;
      await h.loginAs('in-a');
      await h.loginAs('in-b');
      const adminSid = await sessionOf(h.adminId);
      const outside: Record<Exclude<Actor, 'all'>, string> = {
        org: await sessionOf(user.b),
        tree: await sessionOf(user.b),
        self: await sessionOf(user.a),
        custom: await sessionOf(user.a),
        mixed: await sessionOf(user.a),
      };
      const kick = async (who: Actor, sid: string) => {
        const { status, body } = await h.call('DELETE', `/api/v1/sys/session/${sid}`, { token: token[who] });
        return { status, body };
      };
      for (const who of ['org', 'tree', 'self', 'custom', 'mixed'] as const) {
        const listed = await h.ok('GET', '/api/v1/sys/session/online?size=200', { token: token[who] });
        expect(listed.items.map((s: { sessionId: string }) => s.sessionId)).not.toContain(adminSid);
        const other = await kick(who, outside[who]);
        expect(other.body.code).toBe(42024);
        expect({ who, ...(await kick(who, adminSid)) }).toEqual({ who, ...other });
      }
      // A caller whose scope holds the super admin lists the session, so naming the protection tells nothing.
      const listed = await h.ok('GET', '/api/v1/sys/session/online?size=200', { token: token.all });
      expect(listed.items.map((s: { sessionId: string }) => s.sessionId)).toContain(adminSid);
      expect((await kick('all', adminSid)).body.code).toBe(42007);
      expect((await h.call('GET', '/api/v1/ping')).status).toBe(200);
      for (const sid of new Set(Object.values(outside))) {
        expect(
          (await h.ok('GET', '/api/v1/sys/session/online?size=200')).items.map(
            (s: { sessionId: string }) => s.sessionId,
          ),
        ).toContain(sid);
      }
    });

    it('a row outside the scope answers byte for byte as a missing one, on reads and on writes (contract §11)', async () => {
      const missingUser = 999_999;
      const memberRole = await h.role('scope-members', ['GET:/api/v1/sys/user/page']);
      const userCalls: [string, (id: number) => string, ((id: number) => unknown)?][] = [
        ['GET', (id) => `/api/v1/sys/user/${id}`],
        ['PUT', (id) => `/api/v1/sys/user/${id}`, () => ({ nickName: 'counted' })],
        ['DELETE', (id) => `/api/v1/sys/user/${id}`],
        ['POST', () => '/api/v1/sys/user/batch-delete', (id) => ({ ids: [id] })],
        ['PUT', (id) => `/api/v1/sys/user/${id}/enabled`, () => ({ enabled: false })],
        ['PUT', (id) => `/api/v1/sys/user/${id}/password`],
        ['POST', () => '/api/v1/sys/mfa/clear', (id) => ({ userId: id })],
        ['PUT', () => `/api/v1/sys/role/${memberRole}/users`, (id) => ({ userIds: [id] })],
      ];
      const orgCalls: [string, (id: number) => string, unknown?][] = [
        ['GET', (id) => `/api/v1/sys/org/${id}`],
        ['PUT', (id) => `/api/v1/sys/org/${id}`, { name: 'counted' }],
        ['DELETE', (id) => `/api/v1/sys/org/${id}`],
        ['POST', (id) => `/api/v1/sys/org/${id}/copy`, {}],
      ];
      const answer = async (who: Actor, method: string, path: string, json: unknown, id: number | string) => {
        const { status, body } = await h.call(method, path, { token: token[who], json });
        return { status, body: withoutId(body, id) };
      };
      // The super admin outside the caller's scope is one more row they do not see (42007 would name it).
      const hiddenUsers: Partial<Record<Actor, number[]>> = {
        org: [user.b, user.a1, user.none, h.adminId],
        self: [user.a, h.adminId],
        custom: [user.a, user.none, h.adminId],
      };
      for (const [who, ids] of Object.entries(hiddenUsers) as [Actor, number[]][]) {
        for (const [method, path, json] of userCalls) {
          const expected = await answer(who, method, path(missingUser), json?.(missingUser), missingUser);
          expect(expected.body, `${who} ${method} ${path(missingUser)}`).toMatchObject({ code: 42001 });
          for (const id of ids)
            expect(
              await answer(who, method, path(id), json?.(id), id),
              `${who} ${method} ${path(id)}`,
            ).toEqual(expected);
        }
      }
      const missingOrg = 999_998;
      const hiddenOrgs: Partial<Record<Actor, number[]>> = {
        org: [org.B, org.A1],
        self: [org.A, org.B],
        custom: [org.A, org.A1],
      };
      for (const [who, ids] of Object.entries(hiddenOrgs) as [Actor, number[]][]) {
        for (const [method, path, json] of orgCalls) {
          const expected = await answer(who, method, path(missingOrg), json, missingOrg);
          expect(expected.body, `${who} ${method} ${path(missingOrg)}`).toMatchObject({ code: 42003 });
          for (const id of ids)
            expect(await answer(who, method, path(id), json, id), `${who} ${method} ${path(id)}`).toEqual(
              expected,
            );
        }
      }
      // Nothing was written: the hidden rows are as they were.
      expect(await h.ok('GET', `/api/v1/sys/user/${user.b}`)).toMatchObject({ enabled: true });
      expect(await h.ok('GET', `/api/v1/sys/org/${org.B}`)).toMatchObject({ name: 'B' });
      expect(await h.ok('GET', `/api/v1/sys/role/${memberRole}/users`)).toEqual({ userIds: [] });
      // The recycle bin: a deleted user outside the scope is not in the caller's bin.
      const binned = await h.user('scope-binned', { orgId: org.B });
      await h.ok('DELETE', `/api/v1/sys/user/${binned}`);
      for (const [method, path] of [
        ['POST', (id: number) => `/api/v1/sys/recycle/user/${id}/restore`],
        ['DELETE', (id: number) => `/api/v1/sys/recycle/user/${id}`],
      ] as const) {
        const expected = await answer('org', method, path(missingUser), undefined, missingUser);
        expect(expected.body).toMatchObject({ code: 42020 });
        expect(await answer('org', method, path(binned), undefined, binned)).toEqual(expected);
      }
      // A session: one of a user outside the scope answers as one that ended.
      await h.loginAs('in-b');
      const online = await h.ok('GET', `/api/v1/sys/session/online?userId=${user.b}`);
      const ended = online.items[0].sessionId as string;
      await h.ok('DELETE', `/api/v1/sys/session/${ended}`);
      await h.loginAs('in-b');
      const live = (await h.ok('GET', `/api/v1/sys/session/online?userId=${user.b}`)).items[0].sessionId;
      const gone = await answer('org', 'DELETE', `/api/v1/sys/session/${ended}`, undefined, ended);
      expect(gone.body).toMatchObject({ code: 42024 });
      expect(await answer('org', 'DELETE', `/api/v1/sys/session/${live}`, undefined, live)).toEqual(gone);
    });

    it('the import check of an account outside the scope says only that the name is taken; the commit never writes it', async () => {
      const row = (account: string) => ({ index: 1, cells: { account, realName: 'R', orgCode: 'A' } });
      const errorsOf = async (account: string) =>
        (
          await h.ok('POST', '/api/v1/sys/user/import/validate', {
            token: token.org,
            json: { rows: [row(account)] },
          })
        ).rows[0].errors;
      // Outside the scope: a plain user and the super admin answer alike, 46010 without an id.
      const hidden = [{ columnKey: 'account', code: 46010 }];
      expect(await errorsOf('in-b')).toEqual(hidden);
      expect(await errorsOf('IN-B')).toEqual(hidden);
      expect(await errorsOf('superAdmin')).toEqual(hidden);
      // Inside it the caller sees the user anyway: the id is theirs.
      expect(await errorsOf('in-a')).toEqual([{ columnKey: 'account', code: 46010, args: { id: user.a } }]);
      expect(await errorsOf('nobody-here')).toEqual([]);
      for (const strategy of [1, 2]) {
        const res = await h.ok('POST', '/api/v1/sys/user/import/commit', {
          token: token.org,
          json: { rows: [row('in-b')], strategy },
        });
        expect(res, `strategy ${strategy}`).toMatchObject({
          inserted: 0,
          updated: 0,
          failed: 1,
          failures: [{ index: 1, errors: hidden }],
        });
      }
      const skip = await h.ok('POST', '/api/v1/sys/user/import/commit', {
        token: token.org,
        json: { rows: [row('in-b')], strategy: 0 },
      });
      expect(skip).toMatchObject({ inserted: 0, updated: 0, skipped: 1, failed: 0 });
      expect(await h.ok('GET', `/api/v1/sys/user/${user.b}`)).toMatchObject({
        realName: 'in-b',
        orgId: org.B,
      });
    });

    it('an API key bound to a user gets that user’s scope; an unbound key an empty one', async () => {
      const bound = await h.call('GET', '/api/v1/test/scoped-users', {
        token: '',
        headers: { 'x-api-key': BOUND_KEY },
      });
      expect(bound.body.data.ids).toEqual([...(await visible('org'))].sort((a, b) => a - b));
      const unbound = await h.call('GET', '/api/v1/test/scoped-users', {
        token: '',
        headers: { 'x-api-key': UNBOUND_KEY },
      });
      expect(unbound.body.data).toEqual({ ids: [], total: 0 });
    });
  });
}
