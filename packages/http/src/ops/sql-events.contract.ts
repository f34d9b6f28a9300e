/**
 * The SQL console log and failed-SQL warnings over HTTP (blocks of `Service.Sql` with sequence, kind,
 * connection and inlined, masked parameters; the per-request summary), and — with Redis — change events
 * reaching a second instance that shares the Redis prefix and the database.
 */
import type { DbType } from '@svc/kernel';
import { ok } from '@svc/kernel';
import { describe, expect, it } from 'vitest';
import type { CreateAppOptions } from '../app.js';
import { createRoute, z } from '../index.js';
import { registerRoute } from '../openapi/register.js';
import { envelopeResponses } from '../openapi/schemas.js';
import { bearer, json, login } from '../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD } from '../testing/index.js';

const configure: NonNullable<CreateAppOptions['configure']> = (ctx, deps) => {
  registerRoute(
    ctx,
    createRoute({ method: 'get', path: '/api/v1/test/broken-sql', responses: envelopeResponses(z.null()) }),
    { auth: 'anonymous' },
    async (c) => {
      // A unique violation on `token_hash`: the failed statement carries a sensitive column's value.
      const token = {
        sessionId: 'sql-log-test',
        tokenHash: 'hunter2'.padEnd(64, '0'),
        expiresAt: new Date(),
        createTime: new Date(),
      };
      await deps.core.repos.refreshTokens.insert(token);
      try {
        await deps.core.repos.refreshTokens.insert(token);
      } catch {
        // The failure itself is what the test looks for in the log.
      }
      return c.json(ok(null), 200);
    },
  );
};

export function defineSqlAndEventsContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`SQL console log and change events on ${dbType} with ${cache}`, () => {
    it('prints one masked block per statement and a request summary when enabled; failed SQL always', async () => {
      const t = await startTestServer({
        dbType,
        cache,
        configure,
        env: { Service__Database__SqlLog__Enabled: 'true', Service__Database__SqlLog__Color: 'false' },
      });
      try {
        await login(t, 'superAdmin', TEST_ADMIN_PASSWORD);
        const blocks = t.logs.filter((l) => l.includes('Service.Sql:') && / \[Service\] /.test(l));
        expect(blocks.length).toBeGreaterThan(0);
        expect(blocks.some((l) => /#\d+ Query \[Service\] \d+\.\d ms/.test(l))).toBe(true);
        // The login reads the user by account and updates login bookkeeping: values inlined …
        expect(blocks.some((l) => l.includes("'superadmin'") || l.includes("'superAdmin'"))).toBe(true);
        // … but never a password hash.
        expect(t.logs.some((l) => l.includes('pbkdf2-sha256$'))).toBe(false);
        expect(
          t.logs.some((l) => /POST \/api\/v1\/auth\/login: \d+ statement\(s\), .* slowest #\d+/.test(l)),
        ).toBe(true);
        await t.request('/api/v1/test/broken-sql');
        const failed = t.logs.find(
          (l) => l.includes('Service.Sql.Failed') && l.includes('sys_refresh_token'),
        );
        expect(failed).toBeDefined();
        expect(failed).toContain("'***'");
        expect(failed).not.toContain('hunter2');
      } finally {
        await t.close();
      }
    });

    it('prints no SQL blocks by default', async () => {
      const t = await startTestServer({ dbType, cache });
      try {
        await login(t, 'superAdmin', TEST_ADMIN_PASSWORD);
        expect(t.logs.some((l) => l.includes('Service.Sql:'))).toBe(false);
      } finally {
        await t.close();
      }
    });

    if (cache === 'Redis') {
      it('a change on one instance is seen by another sharing the Redis prefix on its next read', async () => {
        const prefix = `svc-events-${Math.random().toString(36).slice(2, 10)}:`;
        const env = { Service__Cache__Redis__KeyPrefix: prefix };
        const a = await startTestServer({ dbType, cache, env });
        const b = await startTestServer({
          dbType,
          cache,
          env,
          reuse: { database: a.database, contentRoot: a.contentRoot },
        });
        try {
          const ha = bearer((await login(a, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
          const hb = bearer((await login(b, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
          const labels = async () =>
            (await json(await b.request('/api/v1/sys/dict/items/gender', { headers: hb }))).data.map(
              (i: { label: string }) => i.label,
            );
          expect(await labels()).toEqual(['Unknown', 'Male', 'Female']);
          const items = await json(
            await a.request('/api/v1/sys/dict/item/page?typeCode=gender', { headers: ha }),
          );
          const male = items.data.items.find((i: { value: string }) => i.value === '1');
          await a.request(`/api/v1/sys/dict/item/${male.id}`, {
            method: 'PUT',
            headers: ha,
            json: { label: 'M' },
          });
          await expect.poll(labels, { timeout: 2000, interval: 20 }).toEqual(['Unknown', 'M', 'Female']);

          const title = async () => (await json(await b.request('/api/v1/sys/config/site'))).data.title;
          expect(await title()).toBe('svc');
          await a.request('/api/v1/sys/config/batch', {
            method: 'PUT',
            headers: ha,
            json: [{ key: 'sys.site.title', value: 'Shared' }],
          });
          await expect.poll(title, { timeout: 2000, interval: 20 }).toBe('Shared');
        } finally {
          await b.stop();
          await a.close();
        }
      });
    }
  });
}
