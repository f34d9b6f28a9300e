/**
 * A stuck database, per dialect (one thin runner each): while another connection holds the lock the service's
 * writes need, every request that needs it settles within the configured waits and answers 503 with 50003
 * and `Retry-After` (none still pending when a guard of several times the timeout fires), nothing is recorded
 * as an exception, and the next request after the lock is released succeeds on the same pool.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, login } from './testing/auth.js';
import { holdUserRowsLock, startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from './testing/index.js';

const TIMEOUT_SECONDS = 1;
const HANG_GUARD_MS = 8 * TIMEOUT_SECONDS * 1000;
const PROFILE = '/api/v1/personal/profile';

export function stuckDatabaseContract(dbType: 'Sqlite' | 'PostgreSQL' | 'MySql'): void {
  describe(`stuck database on ${dbType}`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({
        dbType,
        env: {
          Service__Database__AcquireTimeoutSeconds: String(TIMEOUT_SECONDS),
          Service__Database__CommandTimeoutSeconds: String(TIMEOUT_SECONDS),
        },
      });
    });
    afterAll(() => t?.close());

    it('answers writes 503/50003 with Retry-After within the waits, records no exception, then recovers', async () => {
      const { accessToken } = await login(t, 'superAdmin', TEST_ADMIN_PASSWORD);
      const headers = { ...bearer(accessToken), 'content-type': 'application/json' };
      const put = (realName: string) =>
        Promise.resolve(t.request(PROFILE, { method: 'PUT', headers, body: JSON.stringify({ realName }) }));
      expect((await json(await put('before'))).code).toBe(0);
      const exceptionsBefore = (await t.server.database.repos.exceptionLogs.page({ size: 1 })).total;

      const release = await holdUserRowsLock(dbType, t.database.connectionString);
      let guard: NodeJS.Timeout | undefined;
      const pending = Symbol('pending');
      const timeout = new Promise<typeof pending>((resolve) => {
        guard = setTimeout(() => resolve(pending), HANG_GUARD_MS);
      });
      let outcomes: (typeof pending | { status: number; code: number; retryAfter: string | null })[];
      try {
        outcomes = await Promise.all(
          Array.from({ length: 4 }, (_, i) =>
            Promise.race([
              put(`during-${i}`).then(async (res) => ({
                status: res.status,
                code: (await json(res)).code as number,
                retryAfter: res.headers.get('retry-after'),
              })),
              timeout,
            ]),
          ),
        );
      } finally {
        clearTimeout(guard);
        await release();
      }
      expect(outcomes.filter((o) => o === pending)).toHaveLength(0);
      for (const outcome of outcomes) {
        expect(outcome).toMatchObject({
          status: 503,
          code: 50003,
          retryAfter: expect.stringMatching(/^\d+$/),
        });
      }

      expect((await json(await put('after'))).code).toBe(0);
      expect((await t.server.database.repos.exceptionLogs.page({ size: 1 })).total).toBe(exceptionsBefore);
    });
  });
}
