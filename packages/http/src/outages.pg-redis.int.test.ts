/**
 * Faults injected into two service instances sharing a private PostgreSQL cluster and a private Redis (both
 * started by the fault harness on spare ports, so the shared servers are never touched). Asserts counts, not
 * clocks: during a database stop every request settles with 503/50003 and `Retry-After` (none still pending
 * when a guard of several times the configured timeout fires) and readiness is Unhealthy, then Healthy after
 * the restart without restarting the app; during a Redis stop no authenticated request is refused, readiness
 * is Degraded (200), captcha answers 50004, and a revocation and a config change made meanwhile are seen by
 * both instances once Redis is back. Every write answered with code 0 before a database stop keeps its
 * operation-log row (retried, spilled under the content root, replayed): counted by trace id, 0 lost.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_CHANGED_CHANNEL } from '@svc/data';
import { type CacheHealth, CacheUnavailableError, type ResilientCache } from '@svc/data/cache';
import { type FaultServer, startPrivatePostgres, startPrivateRedis } from '@svc/data/testing';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, login, loginRaw } from './testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from './testing/index.js';

/** The configured waits (seconds): small, so the suite is quick; nothing below depends on their length. */
const TIMEOUT_SECONDS = 1;
/** A request still pending after this long counts as hung (several times the configured timeout). */
const HANG_GUARD_MS = 8 * TIMEOUT_SECONDS * 1000;
/**
 * A stop still pending after this long counts as hung. A stop during a Redis outage waits a few bounded command
 * timeouts of ~2-3 s (the job queue's close, ends of subscriptions); before the fix it never ended.
 */
const STOP_GUARD_MS = 15_000;
const PROFILE = '/api/v1/personal/profile';
const CONFIG_KEY = 'sys.outage.probe';
const ADMIN = 'superAdmin';

const [pgSetup, redisSetup] = await Promise.all([
  startPrivatePostgres(),
  startPrivateRedis({ persistent: true }),
]);
const skip = pgSetup.skip ?? redisSetup.skip;

/** Resolves when the instance's cache reaches `state`. */
function reach(t: TestServer, state: CacheHealth): Promise<void> {
  const cache = t.server.resilientCache as ResilientCache;
  if (cache.health() === state) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = cache.onStateChange((next) => {
      if (next !== state) return;
      stop();
      resolve();
    });
  });
}

/**
 * Resolves once `condition` holds: after each turn of the event loop, then every few milliseconds. The limit
 * only keeps a broken writer from hanging the run; it is far above the writers' retry backoff.
 */
async function until(condition: () => boolean, what: string, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (let turn = 0; ; turn++) {
    if (condition()) return;
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => (turn < 1_000 ? setImmediate(resolve) : setTimeout(resolve, 5)));
  }
}

/** Settles every request or counts it as pending when the guard fires. */
async function settleAll(requests: Promise<Response>[]) {
  let guard: NodeJS.Timeout | undefined;
  const pending = Symbol('pending');
  const timeout = new Promise<typeof pending>((resolve) => {
    guard = setTimeout(() => resolve(pending), HANG_GUARD_MS);
  });
  const outcomes = await Promise.all(
    requests.map((request) =>
      Promise.race([request.then(async (res) => ({ res, body: await json(res) })), timeout]),
    ),
  );
  clearTimeout(guard);
  return {
    pending: outcomes.filter((o) => o === pending).length,
    answered: outcomes.filter((o): o is Exclude<typeof o, typeof pending> => o !== pending),
  };
}

describe.skipIf(skip !== undefined)(`outages with two instances ${skip ?? ''}`, () => {
  const pg = pgSetup.server as FaultServer;
  const redis = redisSetup.server as FaultServer;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    const database = { dbType: 'PostgreSQL' as const, connectionString: pg.url, drop: async () => {} };
    const env = {
      Service__Cache__Redis__Configuration: redis.url,
      Service__Cache__Redis__KeyPrefix: 'outage:',
      // One signing key for both instances, as a deployment has.
      Service__Jwt__SecretKey: 'outage-suite-signing-key-0123456789abcdef',
      Service__Database__AcquireTimeoutSeconds: String(TIMEOUT_SECONDS),
      Service__Database__CommandTimeoutSeconds: String(TIMEOUT_SECONDS),
    };
    const start = () =>
      startTestServer({
        cache: 'Redis',
        env,
        reuse: { database, contentRoot: mkdtempSync(join(tmpdir(), 'svc-outage-')) },
      });
    // One after the other: the first creates the schema and the seed, the second finds them.
    a = await start();
    b = await start();
    await a.server.database.repos.configs.create({
      configKey: CONFIG_KEY,
      configValue: 'before',
      name: 'probe',
    });
  });

  afterAll(async () => {
    await Promise.allSettled([a?.stop(), b?.stop()]);
    await Promise.allSettled([pg.destroy(), redis.destroy()]);
  });

  const ready = async (t: TestServer) => {
    const res = await t.request('/health/ready');
    return { status: res.status, text: await res.text() };
  };
  /** Asks readiness until it answers Healthy (bounded by count, not by time); returns the last answer. */
  const untilHealthy = async (t: TestServer) => {
    let answer = await ready(t);
    for (let i = 0; i < 10_000 && answer.text !== 'Healthy'; i++) answer = await ready(t);
    return answer;
  };

  /**
   * Sends `request` until it answers other than 50003, waiting for readiness and a short pause between tries
   * (bounded by count; the pause only spaces the tries, nothing depends on its length): after a database restart
   * the readiness probe's connection is back while another of the pool's may still be reconnecting, and on a
   * loaded machine its connect can outlast the one-second wait configured here.
   */
  const onceBack = async <T extends { code: number }>(t: TestServer, request: () => Promise<T>) => {
    let answer = await request();
    for (let i = 0; i < 20 && answer.code === 50003; i++) {
      await untilHealthy(t);
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await request();
    }
    return answer;
  };
  const loginOnceBack = async (t: TestServer) => {
    const body = await onceBack(t, async () => (await loginRaw(t, ADMIN, TEST_ADMIN_PASSWORD)).body);
    if (body.code !== 0 || !body.data) throw new Error(`login failed: ${JSON.stringify(body)}`);
    return body.data;
  };

  describe('Redis stopped', () => {
    it('refuses no authenticated request, reports Degraded, answers 50004 for captcha, then agrees again', async () => {
      const kept = await login(a, ADMIN, TEST_ADMIN_PASSWORD);
      const revoked = await login(b, ADMIN, TEST_ADMIN_PASSWORD);
      // Warm both instances: session copies in Redis, config snapshots in memory.
      for (const t of [a, b]) {
        for (const token of [kept.accessToken, revoked.accessToken]) {
          expect((await json(await t.request(PROFILE, { headers: bearer(token) }))).code).toBe(0);
        }
        expect(await t.server.configStore.getRaw(CONFIG_KEY)).toBe('before');
      }
      const exceptionsBefore = (await a.server.database.repos.exceptionLogs.page({ size: 1 })).total;

      await redis.stop();
      const burst = await settleAll(
        Array.from({ length: 40 }, (_, i) =>
          Promise.resolve((i % 2 ? a : b).request(PROFILE, { headers: bearer(kept.accessToken) })),
        ),
      );
      expect(burst.pending).toBe(0);
      expect(burst.answered.filter((o) => o.res.status !== 200 || o.body.code !== 0)).toHaveLength(0);
      expect(await ready(a)).toEqual({ status: 200, text: 'Degraded' });
      expect(await ready(b)).toEqual({ status: 200, text: 'Degraded' });

      const captcha = await a.request('/api/v1/auth/captcha');
      expect(captcha.status).toBe(503);
      expect(captcha.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await json(captcha)).toMatchObject({ code: 50004, msgKey: 'error.system.cacheUnavailable' });

      // A revocation on one instance holds on the other at once: sessions are read from the database.
      expect(
        (
          await json(
            await a.request('/api/v1/auth/logout', { method: 'POST', headers: bearer(revoked.accessToken) }),
          )
        ).code,
      ).toBe(0);
      expect((await b.request(PROFILE, { headers: bearer(revoked.accessToken) })).status).toBe(401);
      // A config change whose event cannot reach the other instance.
      await a.server.database.repos.configs.updateValue(CONFIG_KEY, 'during');
      await a.server.configStore.invalidate(CONFIG_KEY);
      expect(await a.server.configStore.getRaw(CONFIG_KEY)).toBe('during');
      // Logins still work (lockout counts per instance meanwhile).
      expect((await login(b, ADMIN, TEST_ADMIN_PASSWORD)).accessToken).toBeTruthy();

      await redis.start();
      await Promise.all([reach(a, 'Healthy'), reach(b, 'Healthy')]);
      for (const t of [a, b]) {
        // The pool's reconnect backoff may still be running on a loaded machine: ask until it is back.
        expect(await untilHealthy(t)).toEqual({ status: 200, text: 'Healthy' });
        // Redis kept its data (a partition, not a crash): the stale live copy of the revoked session is gone.
        expect((await t.request(PROFILE, { headers: bearer(revoked.accessToken) })).status).toBe(401);
        expect((await json(await t.request(PROFILE, { headers: bearer(kept.accessToken) }))).code).toBe(0);
        expect(await t.server.configStore.getRaw(CONFIG_KEY)).toBe('during');
      }
      expect((await a.request('/api/v1/auth/captcha')).status).toBe(200);
      // The outage was no exception: not one row for it.
      expect((await a.server.database.repos.exceptionLogs.page({ size: 1 })).total).toBe(exceptionsBefore);
    });

    it("ends no other node's job run while node heartbeats cannot be read, nor right after Redis returns; a kill of it answers 50004", async () => {
      // A run held by a live third node whose heartbeat is in Redis; old enough for the sweep to look at it.
      const job = (await a.server.database.repos.jobs.listByStatus(1))[0];
      if (!job) throw new Error('no ready job seeded');
      const started = new Date(Date.now() - 120_000);
      const logId = (await a.server.database.repos.jobLogs.insert({
        jobId: job.id,
        jobName: job.name,
        fireInstanceId: 'm-outage-node-c',
        retryIndex: 0,
        fireMode: 'manual',
        scheduledTime: started,
        startTime: started,
        runStatus: 'running',
        nodeName: 'node-c',
      })) as number;
      await a.server.cache.set('jobs:svc-jobs:node:node-c', Date.now(), 600_000);
      const jobsOf = (t: TestServer) => t.server.jobs as NonNullable<TestServer['server']['jobs']>;
      const engine = (t: TestServer) => jobsOf(t).engine;
      const status = async () => (await a.server.database.repos.jobLogs.get(logId))?.runStatus;
      // Healthy: the heartbeat is found, the run is left alone.
      await engine(a).scan();
      expect(await status()).toBe('running');

      await redis.stop();
      let during: string | undefined;
      let killed: string | undefined;
      try {
        await engine(a).scan(); // its first shared operation finds Redis gone
        await Promise.all([reach(a, 'Degraded'), reach(b, 'Degraded')]);
        await Promise.all([engine(a).scan(), engine(b).scan()]);
        during = await status();
        // A kill of it cannot reach its node: 503 (50004) at once, not "not alive" after the acknowledgement wait.
        killed = await jobsOf(a)
          .service.kill(logId)
          .then(
            () => 'killed',
            (error: unknown) =>
              error instanceof CacheUnavailableError ? 'cache unavailable' : String(error),
          );
      } finally {
        await redis.start();
      }
      expect(during).toBe('running');
      expect(killed).toBe('cache unavailable');
      expect((await a.server.database.repos.jobLogs.get(logId))?.killRequested).toBe(false);
      await Promise.all([reach(a, 'Healthy'), reach(b, 'Healthy')]);
      // Heartbeats may have expired during the outage: none is judged before every live node wrote its own again.
      await a.server.cache.delete('jobs:svc-jobs:node:node-c');
      await Promise.all([engine(a).scan(), engine(b).scan()]);
      expect(await status()).toBe('running');
      await a.server.database.repos.jobLogs.finish(logId, 'node-c', {
        runStatus: 'failed',
        endTime: new Date(),
        elapsedMs: 0,
        errorText: 'test over',
      });
    });
  });

  it('stops an instance within a bounded wait while Redis is down (its job queue and subscriptions are cut)', async () => {
    const c = await startTestServer({
      cache: 'Redis',
      env: {
        Service__Cache__Redis__Configuration: redis.url,
        Service__Cache__Redis__KeyPrefix: 'outage:',
        Service__Jwt__SecretKey: 'outage-suite-signing-key-0123456789abcdef',
      },
      reuse: {
        database: { dbType: 'PostgreSQL', connectionString: pg.url, drop: async () => {} },
        contentRoot: mkdtempSync(join(tmpdir(), 'svc-outage-')),
      },
    });
    await redis.stop();
    let stopped: string | undefined;
    try {
      await reach(c, 'Degraded');
      let guard: NodeJS.Timeout | undefined;
      const hung = new Promise<string>((resolve) => {
        guard = setTimeout(() => resolve('pending'), STOP_GUARD_MS);
      });
      stopped = await Promise.race([c.stop().then(() => 'stopped'), hung]);
      clearTimeout(guard);
    } finally {
      await redis.start();
      await Promise.all([reach(a, 'Healthy'), reach(b, 'Healthy')]);
    }
    expect(stopped).toBe('stopped');
  }, 30_000);

  it('starts degraded while Redis is away at start, serves logins, and is Healthy on Redis once it comes up', async () => {
    const late = await startPrivateRedis();
    if (late.skip) throw new Error(late.skip);
    const lateRedis = late.server as FaultServer;
    await lateRedis.stop();
    let c: TestServer | undefined;
    try {
      c = await startTestServer({
        cache: 'Redis',
        env: {
          Service__Cache__Redis__Configuration: lateRedis.url,
          Service__Cache__Redis__KeyPrefix: 'late:',
          Service__Jwt__SecretKey: 'outage-suite-signing-key-0123456789abcdef',
        },
        reuse: {
          database: { dbType: 'PostgreSQL', connectionString: pg.url, drop: async () => {} },
          contentRoot: mkdtempSync(join(tmpdir(), 'svc-outage-')),
        },
      });
      expect(await ready(c)).toEqual({ status: 200, text: 'Degraded' });
      expect((await loginRaw(c, ADMIN, TEST_ADMIN_PASSWORD)).body.code).toBe(0);

      await lateRedis.start();
      expect(await untilHealthy(c)).toEqual({ status: 200, text: 'Healthy' });
      // The shared store serves now: a value written through the instance is in Redis.
      await c.server.cache.set('late-probe', 'shared', 60_000);
      const { Redis } = await import('ioredis');
      const raw = new Redis(lateRedis.url);
      try {
        expect(await raw.get('late:late-probe')).toContain('shared');
        // The config store subscribed at start, while Redis was away: the subscription is established now, so
        // a change event another instance sends through Redis drops this instance's copy.
        await c.server.configStore.getRaw(CONFIG_KEY);
        const version = c.server.configStore.version();
        expect(version).toBeTypeOf('number');
        await raw.publish(
          `late:${CONFIG_CHANGED_CHANNEL}`,
          JSON.stringify({ key: CONFIG_KEY, origin: 'another-instance' }),
        );
        const store = c.server.configStore;
        await until(() => store.version() !== version, 'config change event received', 10_000);
      } finally {
        await raw.quit();
      }
    } finally {
      await c?.stop();
      await lateRedis.destroy();
    }
  }, 30_000);

  describe('database stopped', () => {
    it('keeps the audit row of every write answered before the stop (retried, spilled, replayed)', async () => {
      const session = await login(a, ADMIN, TEST_ADMIN_PASSWORD);
      const headers = { ...bearer(session.accessToken), 'content-type': 'application/json' };
      const write = (t: TestServer, i: number) =>
        Promise.resolve(
          t.request(PROFILE, { method: 'PUT', headers, body: JSON.stringify({ realName: `w${i}` }) }),
        );
      // The database stops while the burst is under way (after the 20th answer): rows of writes answered just
      // before it are still queued or in flight in the writers, and meet a dead database.
      let answers = 0;
      let stopped: Promise<void> | undefined;
      const outcomes = await Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          write(i % 2 ? a : b, i).then(async (res) => {
            const body = await json(res);
            answers += 1;
            if (answers === 20) stopped = pg.stop();
            return { code: body.code, traceId: res.headers.get('x-trace-id') ?? '' };
          }),
        ),
      );
      await stopped;
      const answered = outcomes.filter((o) => o.code === 0).map((o) => o.traceId);
      expect(answered.length).toBeGreaterThanOrEqual(20);
      // Everything else was refused as the outage it was, not left hanging or failed otherwise.
      expect(outcomes.filter((o) => o.code !== 0 && o.code !== 50003)).toEqual([]);

      // Each writer retries, then spills what it cannot write.
      const writers = [a, b].map((t) => t.server.logWriters.opLog);
      await until(() => writers.every((w) => w.stats().queued === 0), 'queues written or spilled');
      const lost = writers.reduce((sum, w) => sum + w.stats().dropped, 0);
      expect(lost).toBe(0);

      await pg.start();
      // The pools reconnect on their own (after their reconnect backoff): wait for it, do not restart anything.
      for (const t of [a, b]) expect(await untilHealthy(t)).toEqual({ status: 200, text: 'Healthy' });
      // The next successful write replays the spill.
      await Promise.all([write(a, 100), write(b, 101)]);
      await until(
        () => writers.every((w) => w.stats().queued === 0 && w.stats().spilled === 0 && !w.stats().failing),
        'spill replayed',
      );
      const stored = await a.server.database.repos.opLogs.storedTraceIds(answered);
      expect(answered.filter((id) => !stored.has(id))).toEqual([]);
    }, 90_000);

    it('answers every request 503/50003 with Retry-After, none hangs, readiness Unhealthy, then recovers by itself', async () => {
      // The previous test restarted the database just before.
      const session = await loginOnceBack(a);
      expect((await json(await b.request(PROFILE, { headers: bearer(session.accessToken) }))).code).toBe(0);

      await pg.stop();
      const burst = await settleAll(
        Array.from({ length: 30 }, (_, i) => {
          const t = i % 2 ? a : b;
          if (i % 3 === 0)
            return Promise.resolve(
              t.request('/api/v1/auth/login', { json: { account: ADMIN, password: TEST_ADMIN_PASSWORD } }),
            );
          if (i % 3 === 1)
            return Promise.resolve(t.request(PROFILE, { headers: bearer(session.accessToken) }));
          return Promise.resolve(
            t.request(PROFILE, {
              method: 'PUT',
              headers: { ...bearer(session.accessToken), 'content-type': 'application/json' },
              body: JSON.stringify({ realName: `n${i}` }),
            }),
          );
        }),
      );
      expect(burst.pending).toBe(0);
      const wrong = burst.answered.filter(
        (o) =>
          o.res.status !== 503 ||
          o.body.code !== 50003 ||
          !/^\d+$/.test(o.res.headers.get('retry-after') ?? ''),
      );
      expect(wrong.map((o) => [o.res.status, o.body.code])).toEqual([]);
      expect(burst.answered[0]?.body.msgKey).toBe('error.system.databaseUnavailable');
      expect(await ready(a)).toEqual({ status: 503, text: 'Unhealthy' });
      expect(await ready(b)).toEqual({ status: 503, text: 'Unhealthy' });

      await pg.start();
      // The pools reconnect on their own: no restart of either instance.
      for (const t of [a, b]) {
        // The pool's reconnect backoff may still be running on a loaded machine: ask until it is back.
        expect(await untilHealthy(t)).toEqual({ status: 200, text: 'Healthy' });
        const profile = () =>
          Promise.resolve(t.request(PROFILE, { headers: bearer(session.accessToken) })).then(json);
        expect((await onceBack(t, profile)).code).toBe(0);
      }
      expect((await loginOnceBack(b)).accessToken).toBeTruthy();
    }, 90_000);

    it('delivers again a scheduled fire that met the stopped database, once the database is back', async () => {
      const repos = a.server.database.repos;
      const jobsOf = (t: TestServer) => t.server.jobs as NonNullable<TestServer['server']['jobs']>;
      const { hostname, port } = new URL(redis.url);
      const queue = new Queue('svc-jobs', {
        connection: { host: hostname, port: Number(port) },
        prefix: 'outage:bull',
      });
      /** Polls the fire's state in BullMQ until it is one of `states`, within the test's time. */
      const untilState = async (fireId: string, states: readonly string[]) => {
        const deadline = Date.now() + 20_000;
        for (;;) {
          const seen = (await (await queue.getJob(fireId))?.getState()) ?? 'none';
          if (states.includes(seen)) return seen;
          if (Date.now() > deadline)
            throw new Error(`fire ${fireId} never reached ${states.join('/')}: ${seen}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      };
      try {
        // No worker takes a fire until the database is stopped: the fire cannot run before the stop.
        await queue.pause();
        const at = new Date(Math.ceil((Date.now() + 1000) / 1000) * 1000);
        const id = await repos.jobs.create({
          code: 'outage-fire',
          name: 'outage fire',
          handlerKind: 1,
          handlerName: 'sys-job-log-cleanup',
          propsJson: null,
          triggerKind: 3,
          cronExpression: null,
          intervalSeconds: null,
          oneShotTime: at,
          startTime: null,
          endTime: null,
          misfireStrategy: 'fire-once',
          concurrencyMode: 'serial-skip',
          status: 1,
          nextRunTime: at,
          timeoutSeconds: 0,
          retryCount: 0,
          retryIntervalSeconds: 0,
          failAlertThreshold: 0,
          alertByNotice: false,
          isSystem: false,
          remark: null,
        });
        await jobsOf(a).engine.reschedule(id);
        const fireId = `f-${id}-${at.getTime()}`;
        await pg.stop();
        await queue.resume();
        // Delivered while the database is down, its processing fails.
        expect(await untilState(fireId, ['failed', 'completed'])).toBe('failed');
        await pg.start();
        for (const t of [a, b]) expect(await untilHealthy(t)).toEqual({ status: 200, text: 'Healthy' });
        // The next scans queue the fire again and it runs, once (late: as its misfire strategy says).
        let rows = 0;
        for (let i = 0; i < 200 && rows === 0; i++) {
          await jobsOf(a).engine.scan();
          rows = (await repos.jobLogs.page({ jobId: id, size: 10 }).catch(() => ({ total: 0 }))).total;
          if (rows === 0) await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(await untilState(fireId, ['completed'])).toBe('completed');
        expect((await repos.jobLogs.page({ jobId: id, size: 10 })).total).toBe(1);
      } finally {
        await queue.resume().catch(() => {});
        await queue.close();
      }
    }, 60_000);
  });
});
