/**
 * A stuck database, per dialect (one thin runner each): while another connection holds the lock the service's
 * writes need, every request that needs it settles within the configured waits and answers 503 with 50003
 * and `Retry-After` (none still pending when a guard of several times the timeout fires), nothing is recorded
 * as an exception, and the next request after the lock is released succeeds on the same pool. Readiness tells
 * the truth meanwhile (contract §11): Unhealthy within the acquire timeout while an SQLite file is held by another
 * writer or a server database does not answer at all (frozen behind a proxy), Healthy again afterwards, and
 * Healthy while a server database only has some rows locked.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type FreezableProxy, startFreezableProxy } from '@svc/data/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, login } from './testing/auth.js';
import { holdUserRowsLock, startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from './testing/index.js';

const TIMEOUT_SECONDS = 1;
const HANG_GUARD_MS = 8 * TIMEOUT_SECONDS * 1000;
const PROFILE = '/api/v1/personal/profile';
/**
 * Readiness must answer within the acquire timeout; this guard (eight times it, room for a loaded CI machine)
 * only keeps a hang from passing.
 */
const READY_GUARD_MS = 8 * TIMEOUT_SECONDS * 1000;
/** Default ports of the test servers' URLs. */
const DEFAULT_PORT = { PostgreSQL: 5432, MySql: 3306 } as const;

export function stuckDatabaseContract(dbType: 'Sqlite' | 'PostgreSQL' | 'MySql'): void {
  describe(`stuck database on ${dbType}`, () => {
    let t: TestServer;
    /** Server databases are reached through it, so that one test can make the server stop answering. */
    let proxy: FreezableProxy | undefined;
    beforeAll(async () => {
      const database = await createTestDatabase(dbType);
      let connectionString = database.connectionString;
      if (dbType !== 'Sqlite') {
        const url = new URL(connectionString);
        proxy = await startFreezableProxy(url.hostname, Number(url.port || DEFAULT_PORT[dbType]));
        url.port = String(proxy.port);
        connectionString = url.toString();
      }
      t = await startTestServer({
        dbType,
        env: {
          Service__Database__AcquireTimeoutSeconds: String(TIMEOUT_SECONDS),
          Service__Database__CommandTimeoutSeconds: String(TIMEOUT_SECONDS),
        },
        reuse: {
          database: { ...database, connectionString, drop: () => database.drop() },
          contentRoot: mkdtempSync(join(tmpdir(), 'svc-stuck-')),
        },
      });
    });
    afterAll(async () => {
      await t?.close();
      await proxy?.close();
    });

    /** Readiness, or 'pending' when it has not answered by the guard. */
    const ready = async () => {
      let guard: NodeJS.Timeout | undefined;
      const hung = new Promise<'pending'>((resolve) => {
        guard = setTimeout(() => resolve('pending'), READY_GUARD_MS);
      });
      const answer = Promise.resolve(t.request('/health/ready')).then(async (res) => ({
        status: res.status,
        text: await res.text(),
      }));
      try {
        return await Promise.race([answer, hung]);
      } finally {
        clearTimeout(guard);
      }
    };
    /** Asks readiness until it answers Healthy (bounded by count: a pool may still be reconnecting). */
    const untilHealthy = async () => {
      let answer = await ready();
      for (let i = 0; i < 50 && (answer === 'pending' || answer.text !== 'Healthy'); i++)
        answer = await ready();
      return answer;
    };

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
      let readiness: Awaited<ReturnType<typeof ready>> | undefined;
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
        readiness = await ready();
      } finally {
        clearTimeout(guard);
        await release();
      }
      // An SQLite file held by another writer serves no write: Unhealthy. A server database with some rows locked
      // still answers: Healthy.
      expect(readiness).toEqual(
        dbType === 'Sqlite' ? { status: 503, text: 'Unhealthy' } : { status: 200, text: 'Healthy' },
      );
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

    it('answers readiness Unhealthy within the acquire timeout while the database cannot serve, then Healthy', async () => {
      expect(await untilHealthy()).toEqual({ status: 200, text: 'Healthy' });
      // SQLite: another connection holds the file's write lock. Server databases: the server answers nothing.
      const release =
        dbType === 'Sqlite'
          ? await holdUserRowsLock(dbType, t.database.connectionString)
          : async () => proxy?.thaw();
      proxy?.freeze();
      let during: Awaited<ReturnType<typeof ready>>;
      try {
        during = await ready();
      } finally {
        await release();
      }
      expect(during).toEqual({ status: 503, text: 'Unhealthy' });
      expect(t.logs.some((line) => line.includes('Readiness: database is not ready.'))).toBe(true);
      expect(await untilHealthy()).toEqual({ status: 200, text: 'Healthy' });
      // And the next write succeeds on the same pool.
      const { accessToken } = await login(t, 'superAdmin', TEST_ADMIN_PASSWORD);
      const res = await t.request(PROFILE, {
        method: 'PUT',
        headers: { ...bearer(accessToken), 'content-type': 'application/json' },
        body: JSON.stringify({ realName: 'after readiness' }),
      });
      expect((await json(res)).code).toBe(0);
    });
  });
}
