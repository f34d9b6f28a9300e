/**
 * Restoring from the recycle bin a row whose own writes are high-sensitivity (a user, a role, a menu, a config
 * entry, a scheduled job) needs the re-authentication window while TOTP is on, as deleting it for good and
 * writing it do: otherwise a session without a fresh second factor could bring back a deleted administrator (whose
 * password it may know) instead of creating one. A type outside the set (a position) restores without it.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, login } from '../../testing/auth.js';
import { setRuntimeConfig, TEST_ADMIN_PASSWORD, type TestServer } from '../../testing/index.js';
import { recycleBinModule } from '../recycle-bin/index.js';
import { addUser, post, startMfaServer, testClock } from './helpers.contract.js';

export function defineRecycleReauthContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`recycle-bin restore and re-authentication on ${dbType} with ${cache}`, () => {
    const clock = testClock();
    let t: TestServer;
    let admin: string;

    beforeAll(async () => {
      t = await startMfaServer(dbType, cache, clock);
      await setRuntimeConfig(t, 'sys.security.totp.enabled', 'true');
      admin = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
    });
    afterAll(() => t?.close());

    /** Deletes through the API (the re-authentication it needs first), so the row sits in the bin. */
    async function binned(kind: 'user' | 'position'): Promise<number> {
      let id: number;
      if (kind === 'user') id = await addUser(t, { account: `rr-${clock.now().getTime()}` });
      else {
        const created = await post(
          t,
          '/api/v1/sys/position',
          { name: 'RR', code: `rr${Date.now()}`, sort: 1 },
          bearer(admin),
        );
        expect(created.body).toMatchObject({ code: 0 });
        id = (created.body.data as { id: number }).id;
      }
      expect(
        (
          await post(
            t,
            '/api/v1/auth/reauth',
            { method: 'password', password: TEST_ADMIN_PASSWORD },
            bearer(admin),
          )
        ).body.code,
      ).toBe(0);
      const deleted = await t.request(`/api/v1/sys/${kind}/${id}`, {
        method: 'DELETE',
        headers: bearer(admin),
      });
      expect((await json(deleted)).code).toBe(0);
      // The window closes: what follows runs without a fresh second factor.
      clock.advance(5 * 60 + 1);
      return id;
    }

    const restore = async (type: string, id: number) => {
      const res = await t.request(`/api/v1/sys/recycle/${type}/${id}/restore`, {
        method: 'POST',
        headers: bearer(admin),
      });
      return { status: res.status, body: await json(res) };
    };

    it('refuses restoring a user with 403/40024 and leaves it deleted until re-authentication', async () => {
      const id = await binned('user');
      const refused = await restore('user', id);
      expect(refused.body).toMatchObject({ code: 40024 });
      expect(refused.status).toBe(403);
      // Any spelling of the type names the same bin.
      expect((await restore('USER', id)).body.code).toBe(40024);
      expect(await t.server.database.repos.users.findById(id)).toBeUndefined();

      expect(
        (
          await post(
            t,
            '/api/v1/auth/reauth',
            { method: 'password', password: TEST_ADMIN_PASSWORD },
            bearer(admin),
          )
        ).body.code,
      ).toBe(0);
      expect((await restore('user', id)).body.code).toBe(0);
      expect((await t.server.database.repos.users.findById(id))?.id).toBe(id);
    });

    it('restores a type outside the high-sensitivity set without re-authentication', async () => {
      const id = await binned('position');
      expect((await restore('position', id)).body.code).toBe(0);
    });

    it('marks exactly the kernel types whose writes are high-sensitivity', () => {
      const bin = t.server.modules.servicesOf(recycleBinModule).recycleBin;
      const marked = bin
        .list()
        .filter(({ type }) => bin.get(type).reauth === true)
        .map(({ type }) => type)
        .sort();
      expect(marked).toEqual(['config', 'job', 'menu', 'role', 'user']);
    });
  });
}
