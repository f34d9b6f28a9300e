/**
 * The login-log page's filters: `account` (contains, case-insensitive) and `method` (one of the closed set, exactly;
 * another value is refused naming the field). Each row answers its method; a row written before methods were
 * recorded answers null.
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

    it('answers each row’s method and filters by it; a value outside the set is 48000 naming the field', async () => {
      await t.request('/api/v1/auth/login', { json: { account: 'erin-method', password: 'Wrong#Pass1' } });
      // A row of an earlier release: no method.
      await t.server.database.repos.loginLogs.insert({
        account: 'erin-method-old',
        success: false,
        resultCode: 40001,
        createTime: new Date(),
      });
      const rows = async (query: string) => {
        const res = await json(
          await t.request(`/api/v1/sys/log/login/page?size=100&account=erin-method${query}`, {
            headers: admin,
          }),
        );
        expect(res.code).toBe(0);
        return (res.data.items as { account: string; method: string | null }[])
          .map((r) => `${r.account} ${r.method}`)
          .sort();
      };
      expect(await rows('')).toEqual(['erin-method password', 'erin-method-old null']);
      expect(await rows('&method=password')).toEqual(['erin-method password']);
      expect(await rows('&method=passkey')).toEqual([]);
      for (const bad of ['PASSWORD', 'magic', '', 'password,sms']) {
        const res = await json(
          await t.request(`/api/v1/sys/log/login/page?method=${encodeURIComponent(bad)}`, { headers: admin }),
        );
        expect({ bad, res }).toMatchObject({
          bad,
          res: { code: 48000, args: { errors: [{ path: 'method' }] } },
        });
      }
    });
  });
}
