/**
 * Notices over HTTP on one dialect: publish to all, roles and users with receivers fixed at publish time, the
 * inbox with read state, unread count, read and read-all, delete vanishing from every inbox, the codes 45001–45004
 * (every refused action URL variant) and the module kill-switch.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, login } from '../../testing/auth.js';
import {
  grantPermissions,
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../testing/index.js';
import { renameTable } from '../../testing/rename-table.js';

interface Member {
  id: number;
  roleId: number;
  headers: Record<string, string>;
}

export function defineNoticesContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`notices on ${dbType} with ${cache}`, () => {
    let t: TestServer;
    let admin: Record<string, string>;
    let alice: Member;
    let bob: Member;
    let carol: Member;

    /** A user with a role of their own (no permission codes). */
    async function member(account: string): Promise<Member> {
      const id = await grantPermissions(t, { account, permissions: [] });
      const { db, tables } = t.server.database.database;
      const roleId = (await db.select().from(tables.sysUserRole)).find((l) => l.userId === id)?.roleId;
      if (roleId === undefined) throw new Error(`no role for ${account}`);
      const headers = bearer((await login(t, account, TEST_USER_PASSWORD)).accessToken);
      return { id, roleId, headers };
    }

    beforeAll(async () => {
      t = await startTestServer({ dbType, cache, env: { Service__Security__RateLimit__Enabled: 'false' } });
      admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
      alice = await member('notice_alice');
      bob = await member('notice_bob');
      carol = await member('notice_carol');
    });
    afterAll(() => t?.close());

    const publish = async (body: Record<string, unknown>) =>
      json(await t.request('/api/v1/sys/notice', { json: { type: 1, ...body }, headers: admin }));
    const published = async (body: Record<string, unknown>): Promise<number> => {
      const res = await publish(body);
      expect(res.code, JSON.stringify(res)).toBe(0);
      return res.data.id as number;
    };
    const mine = async (who: Member, query = '') => {
      const res = await json(
        await t.request(`/api/v1/sys/notice/mine?size=100${query}`, { headers: who.headers }),
      );
      expect(res.code, JSON.stringify(res)).toBe(0);
      return res.data as { total: number; items: { id: number; isRead: boolean; actions: unknown[] }[] };
    };
    const ids = async (who: Member, query = '') => (await mine(who, query)).items.map((i) => i.id);
    const unread = async (who: Member): Promise<number> => {
      const res = await json(await t.request('/api/v1/sys/notice/unread-count', { headers: who.headers }));
      expect(res.code).toBe(0);
      return res.data as number;
    };
    const read = async (who: Member, id: number) =>
      json(await t.request(`/api/v1/sys/notice/${id}/read`, { method: 'PUT', headers: who.headers }));
    const remove = async (id: number) =>
      json(await t.request(`/api/v1/sys/notice/${id}`, { method: 'DELETE', headers: admin }));

    it('publishes to all, to a role and to users; receivers are fixed at publish time', async () => {
      const before = { a: await unread(alice), b: await unread(bob), c: await unread(carol) };
      const all = await published({ title: 'For everyone', receiverType: 0 });
      const role = await published({ title: 'For alice role', receiverType: 1, receiverIds: [alice.roleId] });
      const users = await published({
        title: 'For bob and carol',
        receiverType: 2,
        receiverIds: [bob.id, carol.id],
      });

      expect(await ids(alice)).toEqual(expect.arrayContaining([all, role]));
      expect(await ids(alice)).not.toContain(users);
      expect(await ids(bob)).toEqual(expect.arrayContaining([all, users]));
      expect(await ids(bob)).not.toContain(role);
      expect(await unread(alice)).toBe(before.a + 2);
      expect(await unread(bob)).toBe(before.b + 2);
      expect(await unread(carol)).toBe(before.c + 2);

      // Bob joins alice's role after publication: the role notice stays alice's only.
      const { db, tables } = t.server.database.database;
      await db.insert(tables.sysUserRole).values({ userId: bob.id, roleId: alice.roleId });
      expect(await ids(bob)).not.toContain(role);
      expect((await read(bob, role)).code).toBe(45001);
      expect(await unread(bob)).toBe(before.b + 2);
      // A notice published to the role now does reach him.
      const later = await published({ title: 'Role again', receiverType: 1, receiverIds: [alice.roleId] });
      expect(await ids(bob)).toContain(later);
    });

    it('reads one, lists only unread, reads all; counts follow', async () => {
      const n1 = await published({ title: 'Read me 1', receiverType: 2, receiverIds: [carol.id] });
      const n2 = await published({ title: 'Read me 2', receiverType: 0 });
      const start = await unread(carol);
      expect(start).toBeGreaterThanOrEqual(2);
      expect((await read(carol, n1)).code).toBe(0);
      expect((await read(carol, n1)).code).toBe(0); // idempotent
      expect(await unread(carol)).toBe(start - 1);
      const page = await mine(carol);
      expect(page.items.find((i) => i.id === n1)?.isRead).toBe(true);
      expect(page.items.find((i) => i.id === n2)?.isRead).toBe(false);
      expect(await ids(carol, '&onlyUnread=true')).not.toContain(n1);
      expect(await ids(carol, '&onlyUnread=true')).toContain(n2);
      // Alice reading an All notice changes nothing for carol.
      expect((await read(alice, n2)).code).toBe(0);
      expect(await unread(carol)).toBe(start - 1);

      const all = await json(
        await t.request('/api/v1/sys/notice/read-all', { method: 'PUT', headers: carol.headers }),
      );
      expect(all.code).toBe(0);
      expect(await unread(carol)).toBe(0);
      expect(await ids(carol, '&onlyUnread=1')).toEqual([]);
      expect((await mine(carol)).items.every((i) => i.isRead)).toBe(true);
      // A later notice is unread again.
      const n3 = await published({ title: 'After read-all', receiverType: 0 });
      expect(await unread(carol)).toBe(1);
      expect(await ids(carol, '&onlyUnread=true')).toEqual([n3]);
    });

    it('a deleted notice vanishes from every inbox and count; deleting or reading it again answers 45001', async () => {
      const everyone = await published({ title: 'To be deleted (all)', receiverType: 0 });
      const some = await published({
        title: 'To be deleted (users)',
        receiverType: 2,
        receiverIds: [alice.id],
      });
      expect((await read(alice, everyone)).code).toBe(0);
      const counts = { a: await unread(alice), b: await unread(bob) };
      expect((await remove(everyone)).code).toBe(0);
      expect((await remove(some)).code).toBe(0);
      expect(await ids(alice)).not.toContain(everyone);
      expect(await ids(alice)).not.toContain(some);
      expect(await ids(bob)).not.toContain(everyone);
      expect(await unread(alice)).toBe(counts.a - 1); // the unread users notice; the all one was read
      expect(await unread(bob)).toBe(counts.b - 1);
      expect((await remove(everyone)).code).toBe(45001);
      expect((await read(bob, everyone)).code).toBe(45001);
      expect((await remove(987654)).code).toBe(45001);
      const page = await json(await t.request('/api/v1/sys/notice/page?size=100', { headers: admin }));
      expect((page.data.items as { id: number }[]).map((i) => i.id)).not.toContain(everyone);
    });

    it('the recycle bin restores a deleted notice to the inboxes it reached; a purge removes its rows', async () => {
      const bin = (path: string, method = 'POST') =>
        t.request(`/api/v1/sys/recycle/notice/${path}`, { method, headers: admin }).then(json);
      const id = await published({ title: 'Binned', receiverType: 2, receiverIds: [alice.id] });
      expect((await read(alice, id)).code).toBe(0);
      expect((await remove(id)).code).toBe(0);
      const page = await json(
        await t.request('/api/v1/sys/recycle/notice/page?size=100', { headers: admin }),
      );
      expect(page.data.items.find((i: { id: number }) => i.id === id)).toMatchObject({ title: 'Binned' });
      expect((await bin(`${id}/restore`)).code).toBe(0);
      // Back for its receiver only, with the read state it had.
      expect((await mine(alice)).items.find((i) => i.id === id)).toMatchObject({ isRead: true });
      expect(await ids(bob)).not.toContain(id);
      expect((await remove(id)).code).toBe(0);
      expect((await bin(`${id}`, 'DELETE')).code).toBe(0);
      expect((await bin(`${id}/restore`)).code).toBe(42020);
      const { db, tables } = t.server.database.database;
      const left = [
        ...(await db.select().from(tables.sysNoticeReceiver)),
        ...(await db.select().from(tables.sysNoticeRead)),
      ].filter((row) => row.noticeId === id);
      expect(left).toEqual([]);
    });

    it('purges a notice with its receiver and read rows at once: a failure midway leaves it whole in the bin', async () => {
      const bin = (path: string, method = 'POST') =>
        t.request(`/api/v1/sys/recycle/notice/${path}`, { method, headers: admin }).then(json);
      const id = await published({ title: 'Purge midway', receiverType: 2, receiverIds: [alice.id, bob.id] });
      expect((await read(alice, id)).code).toBe(0);
      expect((await remove(id)).code).toBe(0);
      const { database } = t.server.database;
      const { db, tables } = database;
      const rowsOf = async () => ({
        receivers: (await db.select().from(tables.sysNoticeReceiver)).filter((x) => x.noticeId === id).length,
        reads: (await db.select().from(tables.sysNoticeRead)).filter((x) => x.noticeId === id).length,
      });
      expect(await rowsOf()).toEqual({ receivers: 2, reads: 1 });
      // The read marks' table is gone: the purge fails after the notice and receiver rows were deleted.
      await renameTable(database, 'sys_notice_read', 'sys_notice_read_away');
      try {
        expect((await bin(`${id}`, 'DELETE')).code).not.toBe(0);
      } finally {
        await renameTable(database, 'sys_notice_read_away', 'sys_notice_read');
      }
      // Nothing went: still in the bin with its rows, and it comes back whole.
      expect(await rowsOf()).toEqual({ receivers: 2, reads: 1 });
      expect((await bin(`${id}/restore`)).code).toBe(0);
      expect((await mine(alice)).items.find((i) => i.id === id)).toMatchObject({ isRead: true });
      expect((await mine(bob)).items.find((i) => i.id === id)).toMatchObject({ isRead: false });
      expect((await remove(id)).code).toBe(0);
      expect((await bin(`${id}`, 'DELETE')).code).toBe(0);
      expect(await rowsOf()).toEqual({ receivers: 0, reads: 0 });
    });

    it('answers foreign, deleted and malformed notice ids with an error envelope, never 500; bin races have one winner', async () => {
      const bin = (path: string, method = 'POST') =>
        t.request(`/api/v1/sys/recycle/notice/${path}`, { method, headers: admin }).then(json);
      const forBob = await published({ title: 'Only bob', receiverType: 2, receiverIds: [bob.id] });
      expect((await read(alice, forBob)).code).toBe(45001);
      expect((await mine(bob)).items.find((i) => i.id === forBob)).toMatchObject({ isRead: false });
      const aliceDelete = await json(
        await t.request(`/api/v1/sys/notice/${forBob}`, { method: 'DELETE', headers: alice.headers }),
      );
      expect(aliceDelete.code).not.toBe(0);
      expect((await bin(`${forBob}/restore`)).code).toBe(42020);
      expect((await bin(`${forBob}`, 'DELETE')).code).toBe(42020);
      for (const raw of ['0', '-1', '99999999999999999999', '9007199254740993', '1e3', 'abc', '1.5', '%20']) {
        for (const res of [
          await t.request(`/api/v1/sys/notice/${raw}/read`, { method: 'PUT', headers: alice.headers }),
          await t.request(`/api/v1/sys/notice/${raw}`, { method: 'DELETE', headers: admin }),
          await t.request(`/api/v1/sys/recycle/notice/${raw}/restore`, { method: 'POST', headers: admin }),
          await t.request(`/api/v1/sys/recycle/notice/${raw}`, { method: 'DELETE', headers: admin }),
        ]) {
          expect(res.status, raw).toBeLessThan(500);
          const body = await json(res);
          expect(body.code, `${raw} ${JSON.stringify(body)}`).not.toBe(0);
          expect(typeof body.msgKey, raw).toBe('string');
        }
      }
      // Restore twice at once, and purge racing a restore: one wins, the rest answer 42020, no duplicate rows.
      expect((await remove(forBob)).code).toBe(0);
      const twice = await Promise.all([bin(`${forBob}/restore`), bin(`${forBob}/restore`)]);
      expect(twice.map((r) => r.code).sort()).toEqual([0, 42020]);
      expect((await mine(bob)).items.filter((i) => i.id === forBob)).toHaveLength(1);
      expect((await remove(forBob)).code).toBe(0);
      const race = await Promise.all([bin(`${forBob}/restore`), bin(`${forBob}`, 'DELETE')]);
      expect(race.map((r) => r.code).filter((c) => c === 0)).toHaveLength(1);
      expect(race.map((r) => r.code).filter((c) => c !== 0)).toEqual([42020]);
    });

    it('refuses missing and unknown receivers (45002, 45003)', async () => {
      expect((await publish({ title: 'x', receiverType: 1 })).code).toBe(45002);
      expect((await publish({ title: 'x', receiverType: 2, receiverIds: [] })).code).toBe(45002);
      const unknown = await publish({ title: 'x', receiverType: 2, receiverIds: [alice.id, 99999] });
      expect(unknown.code).toBe(45003);
      expect(unknown.args).toEqual({ ids: [99999] });
      expect((await publish({ title: 'x', receiverType: 1, receiverIds: [424242] })).code).toBe(45003);
      // A deleted user is not a receiver either.
      const gone = await grantPermissions(t, { account: 'notice_gone', permissions: [] });
      await t.server.database.repos.users.softDelete([gone], { userId: null, at: new Date() });
      expect((await publish({ title: 'x', receiverType: 2, receiverIds: [gone] })).code).toBe(45003);
    });

    it('accepts same-origin actions and refuses every other URL with 45004 and the index', async () => {
      const good = { label: 'Open', method: 'GET', url: '/system/user?id=1#top' };
      const id = await published({
        title: 'With actions',
        receiverType: 2,
        receiverIds: [alice.id],
        actions: [
          good,
          { label: 'Approve', method: 'POST', url: '/api/v1/x/approve', confirm: 'Sure?', style: 'primary' },
        ],
      });
      const item = (await mine(alice)).items.find((i) => i.id === id);
      expect(item?.actions).toEqual([
        good,
        { label: 'Approve', method: 'POST', url: '/api/v1/x/approve', confirm: 'Sure?', style: 'primary' },
      ]);
      const bad = [
        'https://evil.example/x',
        'http:/evil',
        '//evil.example',
        '/\\evil.example',
        '\\\\evil.example',
        '/a//b',
        // Dot segments: a browser resolves them before sending, so the path would reach another route.
        '/api/v1/sys/notice/../cache/flush-auth',
        '/api/v1/sys/cache/./flush-auth',
        '/api/v1/sys/notice/%2E%2E/cache/flush-auth',
        '/api/v1/sys/notice/.%2e/recycle/user/2/restore',
        '/..',
        '/.',
        'javascript:alert(1)',
        'JavaScript:alert(1)',
        'data:text/html,x',
        'relative/path',
        '',
        ' /leading-space',
        '/with\nnewline',
        '/with\ttab',
        '/del\u007fx',
        `/${'a'.repeat(1500)}`,
      ];
      for (const url of bad) {
        const res = await publish({
          title: 'Bad action',
          receiverType: 0,
          actions: [good, { label: 'Bad', method: 'GET', url }],
        });
        expect(res.code, url).toBe(45004);
        expect(res.args, url).toEqual({ index: 1 });
      }
      // NUL anywhere in a body is refused earlier, as a parameter error.
      const nul = await publish({
        title: 'x',
        receiverType: 0,
        actions: [{ label: 'x', method: 'GET', url: '/a\u0000b' }],
      });
      expect(nul.code).toBe(48000);
      // Shape errors are parameter errors; nothing was stored for any refusal.
      expect(
        (await publish({ title: 'x', receiverType: 0, actions: [{ label: 'x', method: 'PUT', url: '/a' }] }))
          .code,
      ).toBe(48000);
      const page = await json(
        await t.request('/api/v1/sys/notice/page?title=Bad%20action', { headers: admin }),
      );
      expect(page.data.total).toBe(0);
    });

    // A POST action runs with the clicker's rights: a publisher may store only requests they could make.
    it('refuses a POST action whose route needs a code the publisher lacks (41001), however the path is spelled', async () => {
      await grantPermissions(t, {
        account: 'notice_publisher',
        permissions: ['POST:/api/v1/sys/notice', 'POST:/api/v1/sys/cache/rebuild-portal'],
      });
      const publisher = bearer((await login(t, 'notice_publisher', TEST_USER_PASSWORD)).accessToken);
      const publishAs = async (
        url: string,
        method = 'POST',
        to: Record<string, unknown> = { receiverType: 0 },
      ) =>
        json(
          await t.request('/api/v1/sys/notice', {
            json: {
              title: 'Click me',
              type: 1,
              ...to,
              actions: [
                { label: 'Open', method: 'GET', url: '/system' },
                { label: 'Go', method, url },
              ],
            },
            headers: publisher,
          }),
        );
      const flush = 'POST:/api/v1/sys/cache/flush-auth';
      for (const url of [
        '/api/v1/sys/cache/flush-auth',
        '/API/V1/SYS/CACHE/FLUSH-AUTH',
        '/api/v1/sys/cache/flush%2Dauth',
        '/api/v1/sys/cache/flush-auth/',
        '/api/v1/sys/cache/flush-auth?x=1',
        '/api/v1/sys/cache/flush-auth#top',
      ]) {
        const res = await publishAs(url);
        expect(res.code, url).toBe(41001);
        expect(res.args, url).toEqual({ index: 1, codes: [flush] });
      }
      // A route with a path parameter, reached through a concrete path.
      const restore = await publishAs('/api/v1/sys/recycle/user/5/restore');
      expect(restore.args).toEqual({ index: 1, codes: ['POST:/api/v1/sys/recycle/{type}/{id}/restore'] });
      // A path no permission route answers and any GET go to anyone.
      expect((await publishAs('/api/v1/x/approve')).code).toBe(0);
      expect((await publishAs('/api/v1/sys/cache/flush-auth', 'GET')).code).toBe(0);
      // The super admin holds every code.
      expect(
        (
          await publish({
            title: 'Admin',
            receiverType: 0,
            actions: [{ label: 'Flush', method: 'POST', url: '/api/v1/sys/cache/flush-auth' }],
          })
        ).code,
      ).toBe(0);
    });

    // The click runs with the clicker's scope and rank: holding the route's code is not enough when the receiver
    // may do more with it than the publisher (a restore of a user in another department, say).
    it('sends an acting POST action only to receivers the publisher outranks (41001, 41005)', async () => {
      const restore = 'POST:/api/v1/sys/recycle/{type}/{id}/restore';
      const deputyId = await grantPermissions(t, {
        account: 'notice_deputy',
        permissions: ['POST:/api/v1/sys/notice', restore],
      });
      const deputy = bearer((await login(t, 'notice_deputy', TEST_USER_PASSWORD)).accessToken);
      const to = async (receiverType: number, receiverIds?: number[]) =>
        json(
          await t.request('/api/v1/sys/notice', {
            json: {
              title: 'Restore this',
              type: 1,
              receiverType,
              ...(receiverIds ? { receiverIds } : {}),
              actions: [{ label: 'Restore', method: 'POST', url: '/api/v1/sys/recycle/user/5/restore' }],
            },
            headers: deputy,
          }),
        );
      const superAdminId = (await t.server.database.repos.users.findByAccount('superAdmin'))?.id as number;
      expect(await to(0)).toMatchObject({ code: 41001, args: { reason: 'action-receivers' } });
      expect(await to(2, [superAdminId])).toMatchObject({
        code: 41001,
        args: { reason: 'action-receivers', ids: [superAdminId] },
      });
      const { db, tables } = t.server.database.database;
      const deputyRole = (await db.select().from(tables.sysUserRole)).find(
        (l) => l.userId === deputyId,
      )?.roleId;
      const scope = async (scopeType: number) => {
        const res = await t.request(`/api/v1/sys/role/${deputyRole}/datascope`, {
          method: 'PUT',
          json: { scopeType, customOrgIds: [] },
          headers: admin,
        });
        expect((await json(res)).code).toBe(0);
      };
      // Its role sees only its own rows: alice, in the root organisation, is outside it.
      await scope(4);
      expect(await to(2, [alice.id])).toMatchObject({ code: 41005, args: { ids: [alice.id] } });
      // A role reaches beyond any narrower scope (@svc/modules' notice/service.ts): refused before its members are read.
      expect(await to(1, [alice.roleId])).toMatchObject({
        code: 41005,
        args: { reason: 'receivers-beyond-scope' },
      });
      await scope(1);
      // Seeing every organisation, it reaches alice (no codes), not someone holding a code it lacks.
      expect((await to(2, [alice.id])).code).toBe(0);
      const bossId = await grantPermissions(t, {
        account: 'notice_boss',
        permissions: ['DELETE:/api/v1/sys/log/op'],
      });
      expect(await to(2, [alice.id, bossId])).toMatchObject({ code: 41001, args: { reason: 'rank' } });
      expect((await ids(alice)).length).toBeGreaterThan(0);
    });

    it('pages for administrators with title and type filters; users without the code are refused', async () => {
      await published({ title: 'Zeta announcement', type: 2, receiverType: 0 });
      const page = await json(
        await t.request('/api/v1/sys/notice/page?title=zeta&type=2', { headers: admin }),
      );
      expect(page.code).toBe(0);
      expect(page.data.items.map((i: { title: string }) => i.title)).toEqual(['Zeta announcement']);
      const none = await json(
        await t.request('/api/v1/sys/notice/page?title=zeta&type=3', { headers: admin }),
      );
      expect(none.data.total).toBe(0);
      const denied = await t.request('/api/v1/sys/notice', {
        json: { title: 'x', type: 1, receiverType: 0 },
        headers: alice.headers,
      });
      expect(denied.status).toBe(403);
      expect((await t.request('/api/v1/sys/notice/page', { headers: alice.headers })).status).toBe(403);
      expect((await t.request('/api/v1/sys/notice/unread-count')).status).toBe(401);
      // Bad input is an envelope, not a crash.
      const badType = await publish({ title: 'x', type: 9, receiverType: 0 });
      expect(badType.code).toBe(48000);
      const badId = await json(
        await t.request('/api/v1/sys/notice/abc/read', { method: 'PUT', headers: alice.headers }),
      );
      expect(badId.code).toBe(48000);
    });
  });
}

/** `Service:Api:DisabledModules` Notice removes the module's routes whole. */
export function defineNoticeKillSwitchContract(dbType: DbType): void {
  describe(`notices switched off on ${dbType}`, () => {
    it('answers 404 and leaves the contract', async () => {
      const t = await startTestServer({ dbType, env: { Service__Api__DisabledModules__0: 'Notice' } });
      try {
        const admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
        expect((await t.request('/api/v1/sys/notice/unread-count', { headers: admin })).status).toBe(404);
        expect((await t.request('/api/v1/sys/notice/page', { headers: admin })).status).toBe(404);
        expect(t.server.routes.routes.some((r) => r.path.includes('/sys/notice'))).toBe(false);
        const doc = (await (await t.request('/openapi/v1.json')).json()) as {
          paths: Record<string, unknown>;
        };
        expect(Object.keys(doc.paths).some((p) => p.includes('/sys/notice'))).toBe(false);
        expect(Object.keys(doc.paths)).toContain('/api/v1/sys/user/page');
      } finally {
        await t.close();
      }
    });
  });
}
