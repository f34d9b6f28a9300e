/**
 * The menu upgrade at start (@svc/data `ensureSeedMenus`) over HTTP: a database seeded by an earlier release,
 * whose seeded button lacks a code this release added to it, gives that code to the roles holding the button once
 * an instance of this release starts; and an instance already running on the same Redis sees it at the user's
 * next request, not after the permission cache's lifetime.
 */
import { hashPassword } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, login } from './testing/auth.js';
import { startTestServer, TEST_USER_PASSWORD, type TestServer } from './testing/index.js';

const TYPES = '/api/v1/sys/recycle/types';
/** Button 1401's codes as the release before the recycle-types route seeded them. */
const EARLIER_1401 = 'GET:/api/v1/sys/recycle/{type}/page';

describe('the seeded menu tree brought up to this release at start', () => {
  let a: TestServer;
  let b: TestServer | undefined;
  // Both instances on one Redis key space.
  const env = {
    Service__Security__RateLimit__Enabled: 'false',
    Service__Cache__Redis__KeyPrefix: `svc-menus-${Math.random().toString(36).slice(2, 10)}:`,
  };

  beforeAll(async () => {
    a = await startTestServer({ cache: 'Redis', env });
    const { db, adapter, tables } = a.server.database.database;
    // The database as the earlier release left it, and a user whose role holds button 1401.
    // Written as the seed wrote it, without an update time (an edit through the repository would stamp one).
    (db as unknown as { $client: { prepare(sql: string): { run(...args: unknown[]): unknown } } }).$client
      .prepare('update sys_menu set permission = ? where id = 1401')
      .run(EARLIER_1401);
    const userId = await adapter.insertReturningId(db, tables.sysUser, {
      account: 'recycler',
      realName: 'recycler',
      password: await hashPassword(TEST_USER_PASSWORD, 100_000),
      orgId: 1,
    });
    const roleId = await adapter.insertReturningId(db, tables.sysRole, {
      name: 'Recycler',
      code: 'recycler',
    });
    await db.insert(tables.sysUserRole).values({ userId, roleId });
    await db.insert(tables.sysRoleMenu).values({ roleId, menuId: 1401 });
    await a.server.security.permissions.invalidateAll();
  });
  afterAll(async () => {
    await b?.stop();
    await a?.close();
  });

  it('gives the button the new code at the next start, and the running instance sees it at once', async () => {
    const token = (await login(a, 'recycler', TEST_USER_PASSWORD)).accessToken;
    const types = async (t: TestServer) => (await t.request(TYPES, { headers: bearer(token) })).status;
    // Before: the page code works, the new route is refused (and the codes are now cached on Redis).
    expect((await a.request('/api/v1/sys/recycle/user/page', { headers: bearer(token) })).status).toBe(200);
    expect(await types(a)).toBe(403);

    b = await startTestServer({
      cache: 'Redis',
      env,
      reuse: { database: a.database, contentRoot: a.contentRoot },
    });
    expect(
      b.logs.some((line) => line.includes('Menu upgrade: 0 seeded menu(s) or button(s) added, 1 given')),
    ).toBe(true);
    const row = await b.server.database.repos.menus.findById(1401);
    expect(row?.permission).toBe('GET:/api/v1/sys/recycle/types;GET:/api/v1/sys/recycle/{type}/page');
    // The running instance reloads the user's codes (the upgrade bumped the shared generation).
    expect(await types(a)).toBe(200);
    expect(await types(b)).toBe(200);
    expect((await json(await b.request(TYPES, { headers: bearer(token) }))).code).toBe(0);
  });
});
