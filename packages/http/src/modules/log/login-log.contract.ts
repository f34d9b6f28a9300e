/**
 * The login-log page's `account` filter (contains, case-insensitive) filters: today it was ignored and every
 * row came back.
 */
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, login } from '../../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../../testing/index.js';

export function defineLoginLogContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`login-log filters on ${dbType} with ${cache}`, () => {
    let t: TestServer;
    let admin: Record<string, string>;
    beforeAll(async () => {
      t = await startTestServer({ dbType, cache, env: { Service__Security__RateLimit__Enabled: 'false' } });
      admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
    });
    afterAll(() => t?.close());

    const accounts = async (query: string) => {
      const res = await json(
        await t.request(`/api/v1/sys/log/login/page?size=100${query}`, { headers: admin }),
      );
      expect(res.code).toBe(0);
      return (res.data.items as { account: string }[]).map((r) => r.account).sort();
    };

    it('filters by account (contains, any case) and answers everything without the filter', async () => {
      await Promise.all(
        ['Carol.Filter', 'carol-other', 'dave'].map((account) =>
          t.request('/api/v1/auth/login', { json: { account, password: 'Wrong#Pass1' } }),
        ),
      );
      expect(await accounts('&account=CAROL')).toEqual(['Carol.Filter', 'carol-other']);
      expect(await accounts('&account=dave')).toEqual(['dave']);
      expect(await accounts('&account=nobody-at-all')).toEqual([]);
      expect(await accounts('&account=%25')).toEqual([]);
      expect(await accounts('')).toEqual(
        expect.arrayContaining(['Carol.Filter', 'carol-other', 'dave', 'superAdmin']),
      );
    });
  });
}
