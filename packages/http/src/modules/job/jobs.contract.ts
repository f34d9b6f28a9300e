/**
 * Scheduled jobs over HTTP on one instance: the seeded clean-up job, create/update/delete with their codes,
 * cron preview, handlers, the HTTP fence and SQL switch at write time, manual runs, kill, timeout and retries
 * in the run log, Panic with the administrators' alert, misfire (skip and catch-up), serial-skip and parallel
 * (with its cap on live runs, `MaxParallelRuns` 2 here), pause and resume, log clear, dashboard, clean-up with
 * reclaimers, and re-authentication on job writes.
 * Mid-run states come from a handler that waits on a promise the test resolves, never from sleeps.
 */
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRepositories, openDatabase } from '@svc/data';
import type { DbType } from '@svc/kernel';
import type { JobContext, JobSystem } from '@svc/modules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineModule } from '../../module/define.js';
import { bearer, json, login } from '../../testing/auth.js';
import {
  grantPermissions,
  setRuntimeConfig,
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../testing/index.js';
import { renameTable } from '../../testing/rename-table.js';

/** Polls `check` until it answers a value (generous deadline; the assertion is on the value, not on time). */
export async function waitFor<T>(
  check: () => Promise<T | undefined | null | false>,
  what: string,
  ms = 20_000,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** One run of the gate handler, waiting for the test. */
export interface GateRun {
  ctx: JobContext;
  release: (m?: string) => void;
  fail: (e: Error) => void;
}

/** A handler whose runs wait until the test releases (or fails) them; aborts end them as the engine says. */
export function gateHandler() {
  const runs = new Map<number, GateRun>();
  const started: JobContext[] = [];
  /** Checks of `startedRuns` waiting for a handler to start. */
  const waiting = new Set<() => void>();
  const handler = (ctx: JobContext) =>
    new Promise<string | undefined>((resolve, reject) => {
      started.push(ctx);
      runs.set(ctx.logId, { ctx, release: resolve, fail: reject });
      for (const check of [...waiting]) check();
    });
  /**
   * Resolves, as the handler starts, with the gate runs of `jobId` once there are at least `n` of them (a run
   * counts from its start until the test deletes it from `runs`): no polling, no deadline but the test's own.
   */
  const startedRuns = (jobId: number, n = 1) =>
    new Promise<GateRun[]>((resolve) => {
      const check = () => {
        const of = [...runs.values()].filter((r) => r.ctx.job.id === jobId);
        if (of.length < n) return;
        waiting.delete(check);
        resolve(of);
      };
      waiting.add(check);
      check();
    });
  return { handler, runs, started, startedRuns };
}

export function defineJobsContract(dbType: DbType, cache: 'Memory' | 'Redis' = 'Memory'): void {
  describe(`scheduled jobs on ${dbType} with ${cache}`, () => {
    let t: TestServer;
    let jobs: JobSystem;
    let admin: Record<string, string>;
    const gate = gateHandler();
    const alerts: string[] = [];
    let failures = 0;
    let reclaimed = 0;

    beforeAll(async () => {
      t = await startTestServer({
        dbType,
        cache,
        env: {
          // An hour: a fire the tests make due now is never a misfire however late a loaded machine picks it up
          // (a `misfire-skip` row would stand where a test looks for its own); the misfire test goes a day back.
          Service__Jobs__MisfireThresholdSeconds: '3600',
          Service__Jobs__MaxParallelRuns: '2',
          Service__Security__RateLimit__Enabled: 'false',
          Service__Logging__RetentionDays: '90',
        },
        // The test's handlers, its Panic alert and its reclaimer come from a module of its own.
        modules: [
          defineModule({
            name: 'JobsTest',
            jobs: () => [
              { name: 'test.gate', description: 'waits for the test', handler: gate.handler },
              {
                name: 'test.fail',
                handler: async () => {
                  failures++;
                  throw new Error(`boom ${failures}`);
                },
              },
              { name: 'test.hang', handler: () => new Promise(() => {}) },
              { name: 'test.ok', handler: async () => 'fine' },
            ],
            jobAlert: () => async (job, text) => {
              alerts.push(`${job.code}: ${text}`);
            },
            reclaimers: () => [
              {
                name: 'test-chunks',
                reclaim: async () => {
                  reclaimed++;
                  return 7;
                },
              },
            ],
          }),
        ],
      });
      if (!t.server.jobs) throw new Error('the Job module is enabled by default');
      jobs = t.server.jobs;
      admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
    });
    afterAll(() => t?.close());

    const call = async (path: string, init: RequestInit & { json?: unknown } = {}) =>
      json(
        await t.request(path, {
          ...init,
          headers: { ...admin, ...(init.headers as Record<string, string>) },
        }),
      );
    const create = (body: Record<string, unknown>) =>
      call('/api/v1/sys/job', {
        json: {
          name: String(body.code),
          handlerKind: 1,
          triggerKind: 1,
          cronExpression: '0 0 0 1 1 ?',
          ...body,
        },
      });
    const createId = async (body: Record<string, unknown>) => {
      const res = await create(body);
      expect(res, JSON.stringify(res)).toMatchObject({ code: 0 });
      return res.data.id as number;
    };
    const logs = async (jobId: number) =>
      (await call(`/api/v1/sys/job/log/page?jobId=${jobId}&size=100&sortField=id&sortOrder=asc`)).data
        .items as {
        id: number;
        runStatus: string;
        retryIndex: number;
        fireMode: string;
        errorText: string | null;
        messageText: string | null;
        nodeName: string;
        endTime: string | null;
      }[];
    const job = async (id: number) => t.server.database.repos.jobs.get(id);
    const runningGate = async (jobId: number) => (await gate.startedRuns(jobId))[0] as GateRun;
    /**
     * `n` run-now requests of a job at once, straight to the service (HTTP requests sent at once reach it one by one
     * in process, each spending its own time in the guards, which would hide the race), on a warm connection pool
     * (queries waiting for new connections would too): each answers 0 or its business code.
     */
    const runNowBurst = async (id: number, n: number) => {
      await Promise.all(Array.from({ length: 10 }, () => job(id)));
      return Promise.all(
        Array.from({ length: n }, () =>
          jobs.service.run(id, { userId: 1, isSuperAdmin: true }).then(
            () => 0,
            (error: { code?: number }) => error.code ?? -1,
          ),
        ),
      );
    };

    it('seeds the log clean-up job as a system job that cannot be deleted', async () => {
      const seeded = await t.server.database.repos.jobs.getByCode('sys-job-log-cleanup');
      expect(seeded).toMatchObject({
        isSystem: true,
        cronExpression: '0 30 3 * * ?',
        status: 1,
        handlerKind: 1,
      });
      expect(seeded?.nextRunTime?.toISOString()).toMatch(/T03:30:00\.000Z$/);
      expect((await call(`/api/v1/sys/job/${seeded?.id}`, { method: 'DELETE' })).code).toBe(47010);
      const other = await createId({ code: 'batch-victim', handlerName: 'test.ok' });
      const batch = await call('/api/v1/sys/job/batch-delete', { json: { ids: [other, seeded?.id] } });
      expect(batch.code).toBe(47010);
      expect(await job(other)).toBeDefined();
      expect((await call('/api/v1/sys/job/batch-delete', { json: { ids: [other] } })).data).toEqual({
        deleted: 1,
      });
    });

    it('validates jobs on write with the catalog codes', async () => {
      expect((await create({ code: 'x1', handlerName: 'nope' })).code).toBe(47005);
      const bad = await create({ code: 'x2', handlerName: 'test.ok', cronExpression: '0 0 25 * * ?' });
      expect(bad.code).toBe(47003);
      expect(bad.args.reason).toMatch(/hour/i);
      expect((await create({ code: 'x3', handlerName: 'test.ok', cronExpression: '0 * * * *' })).code).toBe(
        47003,
      );
      expect(
        (await create({ code: 'x4', handlerName: 'test.ok', triggerKind: 2, intervalSeconds: 4 })).code,
      ).toBe(47004);
      const past = new Date(Date.now() - 60_000).toISOString();
      expect(
        (await create({ code: 'x5', handlerName: 'test.ok', triggerKind: 3, oneShotTime: past })).code,
      ).toBe(47004);
      expect((await create({ code: 'x6', handlerKind: 3, propsJson: '{"sql":"select 1"}' })).code).toBe(
        47008,
      );
      expect((await create({ code: 'x7', handlerName: 'test.ok', nope: 1 })).code).toBe(48000);
      expect((await create({ code: 'x8', handlerKind: 2, propsJson: 'not json' })).code).toBe(48000);
      const id = await createId({ code: 'dup', handlerName: 'test.ok', cronExpression: ' 0  0 12 ? * mon ' });
      expect((await job(id))?.cronExpression).toBe('0 0 12 ? * MON');
      expect((await create({ code: 'dup', handlerName: 'test.ok' })).code).toBe(47002);
      expect((await call(`/api/v1/sys/job/${id}`, { method: 'DELETE' })).code).toBe(0);
      // Unique among live rows: the code is free again once deleted.
      await createId({ code: 'dup', handlerName: 'test.ok' });
      expect(
        (
          await call('/api/v1/sys/job/999999', {
            method: 'PUT',
            json: { name: 'n', handlerKind: 1, handlerName: 'test.ok', triggerKind: 2, intervalSeconds: 5 },
          })
        ).code,
      ).toBe(47001);
      expect((await call('/api/v1/sys/job/abc', { method: 'DELETE' })).code).toBe(48000);
    });

    it('refuses job times outside the years 1970 to 9999 with 48000 naming the field, on every dialect', async () => {
      const id = await createId({
        code: 'far-times',
        handlerName: 'test.ok',
        triggerKind: 2,
        intervalSeconds: 60,
      });
      const cases: [string, Record<string, unknown>][] = [
        ['startTime', { startTime: '0000-01-01T00:00:00Z' }],
        ['startTime', { startTime: '0999-06-01T00:00:00Z' }],
        ['endTime', { endTime: '9999-12-31T23:00:00-05:00' }], // year 10000 in UTC
        ['oneShotTime', { triggerKind: 3, oneShotTime: '1969-12-31T23:59:59Z' }],
      ];
      for (const [field, times] of cases) {
        const created = await create({
          code: 'far-new',
          handlerName: 'test.ok',
          triggerKind: 2,
          intervalSeconds: 60,
          ...times,
        });
        expect(created.code, JSON.stringify(times)).toBe(48000);
        expect(created.args.errors.map((e: { path: string }) => e.path)).toEqual([field]);
        const updated = await call(`/api/v1/sys/job/${id}`, {
          method: 'PUT',
          json: {
            name: 'n',
            handlerKind: 1,
            handlerName: 'test.ok',
            triggerKind: 2,
            intervalSeconds: 60,
            ...times,
          },
        });
        expect(updated.code, JSON.stringify(times)).toBe(48000);
        expect(updated.args.errors.map((e: { path: string }) => e.path)).toEqual([field]);
      }
      expect(await t.server.database.repos.jobs.getByCode('far-new')).toBeUndefined();
      // The last instant of year 9999 is stored and read back on every dialect.
      const last = '9999-12-31T23:59:59.999Z';
      const edge = await createId({
        code: 'far-edge',
        handlerName: 'test.ok',
        triggerKind: 2,
        intervalSeconds: 60,
        endTime: last,
      });
      expect((await job(edge))?.endTime?.toISOString()).toBe(last);
    });

    it('refuses HTTP targets behind the fence: loopback, link-local, private, and names resolving to them', async () => {
      for (const url of [
        'http://127.0.0.1:8080/x',
        'http://[::1]/x',
        'http://169.254.169.254/latest/meta-data',
        'http://10.1.2.3/',
        'http://192.168.0.1/',
        'http://localhost/',
        'http://[::ffff:127.0.0.1]/',
        'file:///etc/passwd',
      ]) {
        const res = await create({
          code: `http-${url.length}`,
          handlerKind: 2,
          propsJson: JSON.stringify({ url }),
        });
        expect(res.code, url).toBe(47009);
      }
    });

    it('previews cron expressions for any signed-in user', async () => {
      const preview = await call('/api/v1/sys/job/preview-cron', {
        json: { cron: '*/15 * * * * ?', count: 3 },
      });
      expect(preview.code).toBe(0);
      expect(preview.data.cron).toBe('*/15 * * * * ?');
      expect(preview.data.nextFireTimes).toHaveLength(3);
      const [a, b] = preview.data.nextFireTimes.map((s: string) => Date.parse(s));
      expect(b - a).toBe(15_000);
      const bad = await call('/api/v1/sys/job/preview-cron', { json: { cron: 'every day' } });
      expect(bad.code).toBe(47003);
      expect(typeof bad.args.reason).toBe('string');
      // An expression that never fires is refused as saving the job would refuse it.
      const never = await call('/api/v1/sys/job/preview-cron', { json: { cron: '0 0 0 30 2 ?' } });
      expect(never.code).toBe(47004);
      expect(
        (await t.request('/api/v1/sys/job/preview-cron', { json: { cron: '* * * * * *' } })).status,
      ).toBe(401);
    });

    it('takes Quartz cron as the source system writes it; days stored before keep their old numbering', async () => {
      const preview = async (cron: string, count = 3) =>
        call('/api/v1/sys/job/preview-cron', { json: { cron, count } });
      const gaps = (times: string[]) =>
        times.slice(1).map((s, i) => Date.parse(s) - Date.parse(times[i] ?? ''));
      const tenth = await preview('0/10 * * * * ?');
      expect(tenth.code).toBe(0);
      expect(tenth.data.cron).toBe('0/10 * * * * ?');
      expect(gaps(tenth.data.nextFireTimes)).toEqual([10_000, 10_000]);
      expect(new Date(tenth.data.nextFireTimes[0]).getUTCSeconds() % 10).toBe(0);
      const fifth = await preview('0 0/5 * * * ?');
      expect(fifth.code).toBe(0);
      expect(gaps(fifth.data.nextFireTimes)).toEqual([300_000, 300_000]);
      const weekday = (times: string[]) => times.map((s) => new Date(s).getUTCDay());
      // Quartz counts 1 = Sunday: 2-6 is Monday to Friday, stored by name.
      const workdays = await preview('0 0 9 ? * 2-6', 10);
      expect(workdays.data.cron).toBe('0 0 9 ? * MON-FRI');
      expect(new Set(weekday(workdays.data.nextFireTimes))).toEqual(new Set([1, 2, 3, 4, 5]));
      const sundays = await preview('0 0 9 ? * 1');
      expect(sundays.data.cron).toBe('0 0 9 ? * SUN');
      expect(weekday(sundays.data.nextFireTimes)).toEqual([0, 0, 0]);
      const thirdFriday = await preview('0 0 12 ? * 6#3');
      expect(thirdFriday.data.cron).toBe('0 0 12 ? * FRI#3');
      for (const at of thirdFriday.data.nextFireTimes) {
        expect(new Date(at).getUTCDay()).toBe(5);
        expect(Math.ceil(new Date(at).getUTCDate() / 7)).toBe(3);
      }
      const lastDay = await preview('0 0 12 L * ?');
      for (const at of lastDay.data.nextFireTimes)
        expect(new Date(Date.parse(at) + 86_400_000).getUTCDate()).toBe(1);
      const lastWeekday = await preview('0 0 12 LW * ?');
      for (const at of lastWeekday.data.nextFireTimes)
        expect([1, 2, 3, 4, 5]).toContain(new Date(at).getUTCDay());
      const year = await preview('0 0 12 1 1 ? 2099');
      expect(year.data.cron).toBe('0 0 12 1 1 ? 2099');
      expect(year.data.nextFireTimes).toEqual(['2099-01-01T12:00:00.000Z']);
      for (const bad of [
        '0 0 12 ? * 8',
        '0 0 12 ? * 0',
        '0 0 12 ? * 2/0',
        '0 0 12 ? * MON 1 2',
        '0 0 12 ? * X#2',
        // Both day fields set (Quartz refuses it; croner would fire on the 1st or on Mondays), `?` elsewhere.
        '0 0 12 1 * MON',
        '0 0 12 L * 6L',
        '0 ? 12 ? * MON',
      ])
        expect((await preview(bad)).code, bad).toBe(47003);
      expect((await preview('0 0 12 ? * MON 2020')).code).toBe(47004);
      // A job saved with Quartz days fires on them; a row stored before (0/7 = Sunday, 1-5 = Monday to Friday)
      // keeps its schedule and is shown by name, so saving it again changes nothing.
      const id = await createId({
        code: 'quartz-days',
        handlerName: 'test.ok',
        cronExpression: '0 0 9 ? * 2-6',
      });
      expect((await job(id))?.cronExpression).toBe('0 0 9 ? * MON-FRI');
      expect([1, 2, 3, 4, 5]).toContain((await job(id))?.nextRunTime?.getUTCDay());
      await t.server.database.repos.jobs.update(id, { cronExpression: '0 0 9 ? * 0,6' });
      const page = await call('/api/v1/sys/job/page?name=quartz&size=100');
      const shown = page.data.items.find((r: { id: number }) => r.id === id);
      expect(shown.cronExpression).toBe('0 0 9 ? * SUN,SAT');
      const saved = await call(`/api/v1/sys/job/${id}`, {
        method: 'PUT',
        json: {
          name: shown.name,
          handlerKind: 1,
          handlerName: 'test.ok',
          triggerKind: 1,
          cronExpression: shown.cronExpression,
        },
      });
      expect(saved.code).toBe(0);
      expect((await job(id))?.cronExpression).toBe('0 0 9 ? * SUN,SAT');
      expect([0, 6]).toContain((await job(id))?.nextRunTime?.getUTCDay());
    });

    it('recycle bin: a restored job comes back paused; a live code blocks the restore; purge takes its run log', async () => {
      const id = await createId({ code: 'rb-job', handlerName: 'test.ok', cronExpression: '0 0 0 1 1 ?' });
      expect((await job(id))?.status).toBe(1);
      expect((await call(`/api/v1/sys/job/${id}/run`, { method: 'POST' })).code).toBe(0);
      await waitFor(async () => (await logs(id)).find((r) => r.runStatus === 'success'), 'a finished run');
      expect((await call(`/api/v1/sys/job/${id}`, { method: 'DELETE' })).code).toBe(0);
      const bin = await call('/api/v1/sys/recycle/job/page?size=100');
      expect(bin.data.items.find((i: { id: number }) => i.id === id)).toMatchObject({ subtitle: 'rb-job' });
      // Another live job took the code meanwhile: the old one cannot come back beside it.
      const other = await createId({ code: 'rb-job', handlerName: 'test.ok' });
      expect((await call(`/api/v1/sys/recycle/job/${id}/restore`, { method: 'POST' })).code).toBe(42021);
      expect((await call(`/api/v1/sys/job/${other}`, { method: 'DELETE' })).code).toBe(0);
      expect((await call(`/api/v1/sys/recycle/job/${id}/restore`, { method: 'POST' })).code).toBe(0);
      // Back, paused: nothing fires until an operator resumes it.
      expect(await job(id)).toMatchObject({ code: 'rb-job', status: 2, isDelete: false });
      expect((await call(`/api/v1/sys/job/${id}/enabled?enabled=true`, { method: 'PUT' })).code).toBe(0);
      expect((await job(id))?.status).toBe(1);
      // Purged: the job and its run log are gone for good.
      expect((await call(`/api/v1/sys/job/${id}`, { method: 'DELETE' })).code).toBe(0);
      expect(await logs(id)).not.toHaveLength(0);
      expect((await call(`/api/v1/sys/recycle/job/${id}`, { method: 'DELETE' })).code).toBe(0);
      expect(await logs(id)).toHaveLength(0);
      expect((await call(`/api/v1/sys/recycle/job/${id}/restore`, { method: 'POST' })).code).toBe(42020);
    });

    it('purges a job with its run log at once: a failure midway leaves it whole in the bin', async () => {
      const id = await createId({ code: 'rb-midway', handlerName: 'test.ok' });
      expect((await call(`/api/v1/sys/job/${id}/run`, { method: 'POST' })).code).toBe(0);
      await waitFor(async () => (await logs(id)).find((r) => r.runStatus === 'success'), 'a finished run');
      expect((await call(`/api/v1/sys/job/${id}`, { method: 'DELETE' })).code).toBe(0);
      // The run log's table is gone: the purge fails after the job row was deleted.
      const { database } = t.server.database;
      await renameTable(database, 'sys_job_log', 'sys_job_log_away');
      try {
        expect((await call(`/api/v1/sys/recycle/job/${id}`, { method: 'DELETE' })).code).not.toBe(0);
      } finally {
        await renameTable(database, 'sys_job_log_away', 'sys_job_log');
      }
      // Nothing went: the job is still in the bin with its run log, and the purge goes through now.
      const inBin = async () =>
        (await call('/api/v1/sys/recycle/job/page?size=100')).data.items.some(
          (i: { id: number }) => i.id === id,
        );
      expect(await inBin()).toBe(true);
      expect(await logs(id)).toHaveLength(1);
      expect((await call(`/api/v1/sys/recycle/job/${id}`, { method: 'DELETE' })).code).toBe(0);
      expect(await inBin()).toBe(false);
      expect(await logs(id)).toHaveLength(0);
    });

    it('ends the run of a job deleted and purged from the bin while it runs; the job stays gone', async () => {
      const id = await createId({ code: 'rb-running', handlerName: 'test.gate' });
      expect((await call(`/api/v1/sys/job/${id}/run`, { method: 'POST' })).code).toBe(0);
      const run = await runningGate(id);
      expect((await call(`/api/v1/sys/job/${id}`, { method: 'DELETE' })).code).toBe(0);
      expect((await call(`/api/v1/sys/recycle/job/${id}`, { method: 'DELETE' })).code).toBe(0);
      expect((await call(`/api/v1/sys/recycle/job/${id}/restore`, { method: 'POST' })).code).toBe(42020);
      run.release('after purge');
      gate.runs.delete(run.ctx.logId);
      const row = await waitFor(async () => {
        const r = await t.server.database.repos.jobLogs.get(run.ctx.logId);
        return r && r.runStatus !== 'running' && r;
      }, 'the run ended');
      expect(row).toMatchObject({ runStatus: 'success', messageText: 'after purge' });
      expect((await call(`/api/v1/sys/job/${id}/run`, { method: 'POST' })).code).not.toBe(0);
    });

    it('answers malformed and unknown job and run-log ids with an error envelope, never 500', async () => {
      for (const raw of ['0', '-1', '99999999999999999999', '9007199254740993', '1e3', 'abc', '1.5', '%20']) {
        for (const [method, path] of [
          ['PUT', `/api/v1/sys/job/${raw}`],
          ['POST', `/api/v1/sys/job/${raw}/run`],
          ['PUT', `/api/v1/sys/job/${raw}/enabled?enabled=true`],
          ['DELETE', `/api/v1/sys/job/${raw}`],
          ['POST', `/api/v1/sys/job/log/${raw}/kill`],
          ['GET', `/api/v1/sys/job/log/page?jobId=${raw}`],
          ['POST', `/api/v1/sys/recycle/job/${raw}/restore`],
          ['DELETE', `/api/v1/sys/recycle/job/${raw}`],
        ] as const) {
          const res = await t.request(path, { method, headers: admin });
          expect(res.status, `${method} ${path}`).toBeLessThan(500);
          const body = await json(res);
          expect(typeof body.msgKey, `${method} ${path} ${JSON.stringify(body)}`).toBe('string');
          if (!path.includes('/page')) expect(body.code, `${method} ${path}`).not.toBe(0);
        }
      }
    });

    it('lists the compiled handlers and the SQL switch', async () => {
      const res = await call('/api/v1/sys/job/handlers');
      expect(res.data.sqlAllowed).toBe(false);
      expect(res.data.privateHttpAllowed).toBe(false);
      const names = res.data.handlers.map((h: { name: string }) => h.name);
      expect(names).toEqual(expect.arrayContaining(['sys-job-log-cleanup', 'test.gate', 'test.ok']));
    });

    it('runs a job now, refuses a second serial run meanwhile, and kills the run', async () => {
      const id = await createId({ code: 'manual-gate', handlerName: 'test.gate' });
      expect((await call(`/api/v1/sys/job/${id}/run`, { method: 'POST' })).code).toBe(0);
      const run = await runningGate(id);
      expect(run.ctx.fireMode).toBe('manual');
      // A manual run is the job's last run, and leaves the schedule's next fire alone.
      expect((await job(id))?.lastRunTime).toBeInstanceOf(Date);
      expect((await call(`/api/v1/sys/job/${id}/run`, { method: 'POST' })).code).toBe(47006);
      const [row] = await logs(id);
      expect(row).toMatchObject({ runStatus: 'running', fireMode: 'manual', nodeName: jobs.engine.nodeName });
      const dash = await call('/api/v1/sys/job/dashboard');
      expect(dash.data.inFlight.some((r: { logId: number }) => r.logId === row?.id)).toBe(true);
      // Clearing the log keeps the running row.
      await call('/api/v1/sys/job/log/clear', { json: { jobId: id } });
      expect(await logs(id)).toHaveLength(1);

      expect((await call(`/api/v1/sys/job/log/${row?.id}/kill`, { method: 'POST' })).code).toBe(0);
      const killed = await waitFor(
        async () => (await logs(id)).find((r) => r.runStatus === 'killed'),
        'killed row',
      );
      expect(killed.endTime).not.toBeNull();
      expect(run.ctx.signal.aborted).toBe(true);
      expect((await call(`/api/v1/sys/job/log/${row?.id}/kill`, { method: 'POST' })).code).toBe(47007);
      expect((await call('/api/v1/sys/job/log/999999/kill', { method: 'POST' })).code).toBe(47007);
      expect((await job(id))?.consecutiveErrors).toBe(0);
    });

    it('runs a serial job once for run-now requests sent at once: one run, 47006 to the others', async () => {
      const id = await createId({ code: 'serial-burst', handlerName: 'test.gate' });
      const codes = await runNowBurst(id, 8);
      expect(codes.filter((c) => c === 0)).toHaveLength(1);
      expect(codes.filter((c) => c !== 0)).toEqual(Array(7).fill(47006));
      // The answer came after the running row was written: it is there at once, and a request finds it.
      const rows = await logs(id);
      expect(rows.map((r) => [r.runStatus, r.fireMode])).toEqual([['running', 'manual']]);
      expect((await call(`/api/v1/sys/job/${id}/run`, { method: 'POST' })).code).toBe(47006);
      const run = await runningGate(id);
      expect([...gate.runs.values()].filter((r) => r.ctx.job.id === id)).toHaveLength(1);
      run.release('once');
      gate.runs.delete(run.ctx.logId);
      await waitFor(async () => (await logs(id))[0]?.runStatus === 'success', 'the run done');
      // The claim went with the run: the job runs again.
      expect((await call(`/api/v1/sys/job/${id}/run`, { method: 'POST' })).code).toBe(0);
      const again = await runningGate(id);
      again.release('twice');
      gate.runs.delete(again.ctx.logId);
      await waitFor(
        async () => (await logs(id)).filter((r) => r.runStatus === 'success').length === 2,
        'the second run done',
      );
    });

    it('runs a serial job once when a run now meets its scheduled fire: the other trigger is refused or skipped', async () => {
      const id = await createId({ code: 'serial-meet', handlerName: 'test.gate' });
      let seen = 0;
      for (let round = 1; round <= 3; round++) {
        await t.server.database.repos.jobs.setNextRunTime(id, new Date(Date.now() - 1000 - round));
        await Promise.all(Array.from({ length: 10 }, () => job(id)));
        const [, code] = await Promise.all([
          jobs.engine.scan(),
          jobs.service.run(id, { userId: 1, isSuperAdmin: true }).then(
            () => 0,
            (error: { code?: number }) => error.code ?? -1,
          ),
        ]);
        expect([0, 47006]).toContain(code);
        const [run] = await gate.startedRuns(id);
        // The losing trigger left its trace: 47006 to the run now, or a skipped row for the scheduled fire (which
        // BullMQ may pick up after the answer, while the run now still holds the claim).
        const rows = await waitFor(async () => {
          const mine = (await logs(id)).filter((r) => r.id > seen);
          return mine.some((r) => r.fireMode === 'schedule') && mine;
        }, 'both triggers settled');
        seen = Math.max(...rows.map((r) => r.id));
        expect(rows.map((r) => [r.fireMode, r.runStatus]).sort()).toEqual(
          code === 0
            ? [
                ['manual', 'running'],
                ['schedule', 'skipped'],
              ]
            : [['schedule', 'running']],
        );
        expect([...gate.runs.values()].filter((r) => r.ctx.job.id === id)).toHaveLength(1);
        run?.release(`round ${round}`);
        gate.runs.delete(run?.ctx.logId as number);
        await waitFor(
          async () => (await logs(id)).filter((r) => r.runStatus === 'success').length === round,
          'the run done',
        );
      }
      expect((await logs(id)).filter((r) => r.runStatus === 'running')).toEqual([]);
      expect(await job(id)).toMatchObject({ status: 1, consecutiveErrors: 0 });
    });

    it('ends a run left running by a node that is gone, so a serial job is not blocked for ever', async () => {
      const id = await createId({ code: 'orphan', handlerName: 'test.ok' });
      const started = new Date(Date.now() - 120_000);
      const logId = await t.server.database.repos.jobLogs.insert({
        jobId: id,
        jobName: 'orphan',
        fireInstanceId: 'm-ghost-run',
        retryIndex: 0,
        fireMode: 'manual',
        scheduledTime: started,
        startTime: started,
        runStatus: 'running',
        nodeName: 'ghost-node',
      });
      expect((await call(`/api/v1/sys/job/${id}/run`, { method: 'POST' })).code).toBe(47006);
      await jobs.engine.scan();
      const row = await t.server.database.repos.jobLogs.get(logId as number);
      expect(row).toMatchObject({ runStatus: 'failed', errorText: 'node ghost-node stopped during the run' });
      expect((await call(`/api/v1/sys/job/${id}/run`, { method: 'POST' })).code).toBe(0);
    });

    it('writes one row per attempt: retries of a failing handler, then timeouts', async () => {
      const failing = await createId({ code: 'retry-fail', handlerName: 'test.fail', retryCount: 2 });
      await call(`/api/v1/sys/job/${failing}/run`, { method: 'POST' });
      const rows = await waitFor(async () => {
        const r = await logs(failing);
        return r.length === 3 && r.every((x) => x.runStatus === 'failed') && r;
      }, 'three failed attempts');
      expect(rows.map((r) => r.retryIndex)).toEqual([0, 1, 2]);
      expect(rows[2]?.errorText).toMatch(/boom/);
      await waitFor(async () => (await job(failing))?.numberOfErrors === 1, 'the fire counted once');

      const hanging = await createId({
        code: 'timeout',
        handlerName: 'test.hang',
        timeoutSeconds: 1,
        retryCount: 1,
      });
      await call(`/api/v1/sys/job/${hanging}/run`, { method: 'POST' });
      const timed = await waitFor(async () => {
        const r = await logs(hanging);
        return r.length === 2 && r.every((x) => x.runStatus === 'timeout') && r;
      }, 'two timed-out attempts');
      expect(timed.map((r) => r.retryIndex)).toEqual([0, 1]);
    });

    it('goes to Panic after the alert threshold and alerts the administrators once', async () => {
      const id = await createId({
        code: 'panics',
        handlerName: 'test.fail',
        failAlertThreshold: 2,
        alertByNotice: true,
      });
      await call(`/api/v1/sys/job/${id}/run`, { method: 'POST' });
      await waitFor(async () => (await job(id))?.consecutiveErrors === 1, 'first failure');
      expect((await job(id))?.status).toBe(1);
      await call(`/api/v1/sys/job/${id}/run`, { method: 'POST' });
      await waitFor(async () => (await job(id))?.status === 4, 'Panic');
      // The alert follows the status write: the row can say Panic before the engine has called it.
      await waitFor(async () => alerts.some((a) => a.startsWith('panics:')), 'the alert');
      expect(alerts.filter((a) => a.startsWith('panics:'))).toHaveLength(1);
      // Resume forgives the failures and plans the next fire.
      expect((await call(`/api/v1/sys/job/${id}/enabled?enabled=true`, { method: 'PUT' })).code).toBe(0);
      expect(await job(id)).toMatchObject({ status: 1, consecutiveErrors: 0 });
    });

    it('pauses and resumes; a paused job is not fired', async () => {
      const id = await createId({ code: 'pausing', handlerName: 'test.ok' });
      expect((await call(`/api/v1/sys/job/${id}/enabled?enabled=false`, { method: 'PUT' })).code).toBe(0);
      expect((await job(id))?.status).toBe(2);
      expect((await call(`/api/v1/sys/job/${id}/enabled?enabled=maybe`, { method: 'PUT' })).code).toBe(48000);
      const past = new Date(Date.now() - 1000);
      await t.server.database.repos.jobs.setNextRunTime(id, past);
      await jobs.engine.scan();
      expect(await logs(id)).toHaveLength(0);
      expect((await call(`/api/v1/sys/job/${id}/enabled?enabled=true`, { method: 'PUT' })).code).toBe(0);
      const resumed = await job(id);
      expect(resumed?.status).toBe(1);
      expect(resumed?.nextRunTime?.getTime()).toBeGreaterThan(Date.now());
    });

    it('handles misfires per job: a skip row, or one catch-up run, and the next fire from now', async () => {
      const skip = await createId({ code: 'misfire-skip', handlerName: 'test.ok', misfireStrategy: 'skip' });
      const once = await createId({
        code: 'misfire-once',
        handlerName: 'test.ok',
        misfireStrategy: 'fire-once',
      });
      // A day late, beyond the hour of MisfireThresholdSeconds.
      const longAgo = new Date(Date.now() - 86_400_000);
      for (const id of [skip, once]) await t.server.database.repos.jobs.setNextRunTime(id, longAgo);
      await jobs.engine.scan();
      const skipped = await waitFor(async () => (await logs(skip))[0], 'misfire-skip row');
      expect(skipped).toMatchObject({ runStatus: 'skipped', fireMode: 'misfire-skip' });
      const caught = await waitFor(
        async () => (await logs(once)).find((r) => r.runStatus === 'success'),
        'catch-up run',
      );
      expect(caught.fireMode).toBe('catch-up');
      expect(await logs(once)).toHaveLength(1);
      for (const id of [skip, once])
        expect((await job(id))?.nextRunTime?.getTime()).toBeGreaterThan(Date.now());
    });

    it('skips a scheduled fire while a serial job runs, and runs both for a parallel job', async () => {
      const serial = await createId({ code: 'serial', handlerName: 'test.gate' });
      const parallel = await createId({
        code: 'parallel',
        handlerName: 'test.gate',
        concurrencyMode: 'parallel',
      });
      for (const id of [serial, parallel]) {
        await call(`/api/v1/sys/job/${id}/run`, { method: 'POST' });
        await runningGate(id);
        await t.server.database.repos.jobs.setNextRunTime(id, new Date(Date.now() - 500));
      }
      await jobs.engine.scan();
      const skipped = await waitFor(
        async () => (await logs(serial)).find((r) => r.runStatus === 'skipped'),
        'serial skipped row',
      );
      expect(skipped.fireMode).toBe('schedule');
      await gate.startedRuns(parallel, 2);
      for (const run of gate.runs.values()) run.release('released');
      gate.runs.clear();
      await waitFor(
        async () => (await logs(parallel)).filter((r) => r.runStatus === 'success').length === 2,
        'both done',
      );
      expect((await logs(serial)).map((r) => r.runStatus).sort()).toEqual(['skipped', 'success']);
    });

    it('caps the live runs of a parallel job at MaxParallelRuns: a fire beyond it is skipped, a run now answers 47006', async () => {
      const id = await createId({
        code: 'parallel-cap',
        handlerName: 'test.gate',
        concurrencyMode: 'parallel',
        failAlertThreshold: 1,
      });
      const gateRuns = () => [...gate.runs.values()].filter((r) => r.ctx.job.id === id);
      let fires = 0;
      /**
       * Makes the job due now (a fire time of its own each call) and lets the scheduler pick the fire up: a
       * scheduled fire however late it is picked up, the misfire threshold being an hour.
       */
      const fire = async () => {
        fires++;
        await t.server.database.repos.jobs.setNextRunTime(id, new Date(Date.now() - 1000 - fires));
        await jobs.engine.scan();
      };
      const skippedRows = async () => (await logs(id)).filter((r) => r.runStatus === 'skipped');
      /**
       * Polls (bounded, naming what it waited for) until exactly `n` runs of the job are alive on both sides: `n`
       * gate handlers started and `n` running rows in the run log. Each step waits on this observable state,
       * never on how long the machine takes to reach it.
       */
      const live = (n: number, what: string) =>
        waitFor(async () => {
          if (gateRuns().length !== n) return false;
          return (await logs(id)).filter((r) => r.runStatus === 'running').length === n;
        }, `${n} live runs: ${what}`);
      const capMessage =
        /^2 runs of the job are running, at the cap of 2 parallel runs \(Service:Jobs:MaxParallelRuns\)$/;

      // Two runs: one now, one scheduled; both stay running.
      expect((await call(`/api/v1/sys/job/${id}/run`, { method: 'POST' })).code).toBe(0);
      await fire();
      await live(2, 'one run now and one scheduled');
      // The third fire finds the cap: a skipped row naming it, no third run.
      await fire();
      const [skipped] = await waitFor(async () => {
        const rows = await skippedRows();
        return rows.length === 1 && rows;
      }, 'the fire beyond the cap skipped');
      expect(skipped).toMatchObject({ fireMode: 'schedule', retryIndex: 0 });
      expect(skipped?.messageText).toMatch(capMessage);
      expect(skipped?.endTime).not.toBeNull();
      expect(gateRuns()).toHaveLength(2);
      // A run now at the cap answers 47006 and says why.
      const refused = await call(`/api/v1/sys/job/${id}/run`, { method: 'POST' });
      expect(refused).toMatchObject({ code: 47006, args: { id, running: 2, maxParallel: 2 } });
      expect((await logs(id)).filter((r) => r.runStatus === 'running')).toHaveLength(2);
      // A skipped fire is no failure: no error counted, no Panic even at a threshold of 1.
      expect(await job(id)).toMatchObject({ status: 1, numberOfErrors: 0, consecutiveErrors: 0 });

      // One run ends: the next fire runs again.
      const [first, second] = gateRuns();
      first?.release('first');
      gate.runs.delete(first?.ctx.logId as number);
      await waitFor(
        async () => (await logs(id)).some((r) => r.runStatus === 'success'),
        'the first run done',
      );
      await fire();
      await live(2, 'a new run in the freed place');
      expect(await skippedRows()).toHaveLength(1);

      // At one below the cap, run-now requests sent at once let exactly one through. Straight to the service, on a
      // warm connection pool (HTTP requests made in process reach it one by one).
      second?.release('second');
      gate.runs.delete(second?.ctx.logId as number);
      await waitFor(
        async () => (await logs(id)).filter((r) => r.runStatus === 'success').length === 2,
        'the second run done',
      );
      const codes = await runNowBurst(id, 8);
      expect(codes.filter((c) => c === 0)).toHaveLength(1);
      expect(codes.filter((c) => c !== 0)).toEqual(Array(7).fill(47006));
      expect((await logs(id)).filter((r) => r.runStatus === 'running')).toHaveLength(2);
      await live(2, 'the two runs at the cap');
      expect(await job(id)).toMatchObject({ status: 1, numberOfErrors: 0, consecutiveErrors: 0 });
      for (const run of gateRuns()) {
        run.release('done');
        gate.runs.delete(run.ctx.logId);
      }
      await waitFor(
        async () => (await logs(id)).filter((r) => r.runStatus === 'success').length === 4,
        'every run done',
      );
      // A bound of its own well above its steps': each wait above is bounded and fails by itself, naming what it
      // waited for, however slowly a loaded machine gets there.
    }, 120_000);

    it('fires on schedule: an interval job runs by itself', async () => {
      const id = await createId({
        code: 'interval',
        handlerName: 'test.ok',
        triggerKind: 2,
        intervalSeconds: 5,
      });
      const first = await waitFor(
        async () => (await logs(id)).find((r) => r.runStatus === 'success'),
        'a fire',
        30_000,
      );
      expect(first).toMatchObject({ fireMode: 'schedule', messageText: 'fine' });
    });

    it('cleans old run-log rows and runs the reclaimers in the seeded job', async () => {
      const victim = await createId({ code: 'old-rows', handlerName: 'test.ok' });
      const old = new Date(Date.now() - 400 * 86_400_000);
      await t.server.database.repos.jobLogs.insert({
        jobId: victim,
        jobName: 'old',
        fireInstanceId: 'f-old-1',
        retryIndex: 0,
        fireMode: 'schedule',
        scheduledTime: old,
        startTime: old,
        endTime: old,
        runStatus: 'success',
        nodeName: 'gone',
      });
      // The logs' retention (Logging:RetentionDays 90 here): each log's row of 400 days goes, its row of 89 stays.
      const repos = t.server.database.repos;
      const recent = new Date(Date.now() - 89 * 86_400_000);
      const opRow = (traceId: string, createTime: Date) => ({
        title: 'retention',
        httpMethod: 'PUT',
        path: '/retention',
        paramJson: null,
        resultCode: 0,
        success: true,
        elapsedMs: 1,
        operatorId: 1,
        operatorName: 'superAdmin',
        ip: null,
        userAgent: null,
        traceId,
        createTime,
      });
      await repos.opLogs.insertMany([opRow('retention-old', old), opRow('retention-recent', recent)]);
      for (const [name, createTime] of [
        ['old', old],
        ['recent', recent],
      ] as const) {
        await repos.loginLogs.insert({
          account: `retention-${name}`,
          success: false,
          resultCode: 40001,
          createTime,
        });
        await repos.exceptionLogs.insert({
          httpMethod: 'GET',
          path: `/retention-${name}`,
          traceId: `retention-${name}`,
          exceptionType: 'Error',
          message: 'retention',
          createTime,
        });
      }
      const cleanup = await t.server.database.repos.jobs.getByCode('sys-job-log-cleanup');
      await call(`/api/v1/sys/job/${cleanup?.id}/run`, { method: 'POST' });
      const row = await waitFor(
        async () => (await logs(cleanup?.id as number)).find((r) => r.runStatus === 'success'),
        'clean-up run',
      );
      expect(row.messageText).toMatch(/job log: 1 rows/);
      expect(row.messageText).toMatch(/test-chunks: 7/);
      expect(row.messageText).toMatch(/logs: 3(;|$)/);
      expect(reclaimed).toBe(1);
      expect([...(await repos.opLogs.storedTraceIds(['retention-old', 'retention-recent']))]).toEqual([
        'retention-recent',
      ]);
      const logins = await repos.loginLogs.page({ account: 'retention-', size: 10 });
      expect(logins.items.map((r) => r.account)).toEqual(['retention-recent']);
      const exceptions = await repos.exceptionLogs.page({ size: 200 });
      expect(exceptions.items.filter((r) => r.path.startsWith('/retention')).map((r) => r.path)).toEqual([
        '/retention-recent',
      ]);
      expect(await logs(victim)).toHaveLength(0);
    });

    it('shows the dashboard and pages jobs with filters', async () => {
      const dash = await call('/api/v1/sys/job/dashboard');
      expect(dash.code).toBe(0);
      expect(dash.data.trend).toHaveLength(14);
      expect(dash.data.today.success).toBeGreaterThan(0);
      expect(dash.data.statusCounts.ready).toBeGreaterThan(0);
      expect(dash.data.nodes.some((n: { current: boolean }) => n.current)).toBe(true);
      expect(dash.data.upcoming.length).toBeGreaterThan(0);
      const page = await call('/api/v1/sys/job/page?name=misfire&handlerKind=1&status=1');
      expect(page.data.items.map((j: { code: string }) => j.code).sort()).toEqual([
        'misfire-once',
        'misfire-skip',
      ]);
      expect((await call('/api/v1/sys/job/page?status=9')).code).toBe(48000);
      expect((await call('/api/v1/sys/job/log/page?runStatus=weird')).code).toBe(48000);
    });

    it('needs re-authentication for job writes while second factors are on', async () => {
      await setRuntimeConfig(t, 'sys.security.totp.enabled', 'true');
      const token = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
      const as = bearer(token);
      const writes: [string, string, unknown?][] = [
        [
          'POST',
          '/api/v1/sys/job',
          {
            code: 'reauth',
            name: 'r',
            handlerKind: 1,
            handlerName: 'test.ok',
            triggerKind: 2,
            intervalSeconds: 5,
          },
        ],
        ['POST', '/api/v1/sys/job/1/run'],
        ['PUT', '/api/v1/sys/job/1/enabled?enabled=false'],
        ['DELETE', '/api/v1/sys/job/1'],
        ['POST', '/api/v1/sys/job/batch-delete', { ids: [1] }],
        ['POST', '/api/v1/sys/job/log/1/kill'],
        ['POST', '/api/v1/sys/job/log/clear', {}],
      ];
      for (const [method, path, body] of writes) {
        const res = await t.request(path, { method, headers: as, ...(body ? { json: body } : {}) });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect((await json(res)).code).toBe(40024);
      }
      expect(await t.server.database.repos.jobs.getByCode('reauth')).toBeUndefined();
      // Reads stay open.
      expect((await json(await t.request('/api/v1/sys/job/page', { headers: as }))).code).toBe(0);
      const re = await t.request('/api/v1/auth/reauth', {
        headers: as,
        json: { method: 'password', password: TEST_ADMIN_PASSWORD },
      });
      expect((await json(re)).code).toBe(0);
      const created = await t.request('/api/v1/sys/job', { headers: as, json: writes[0]?.[2] });
      expect((await json(created)).code).toBe(0);
      await setRuntimeConfig(t, 'sys.security.totp.enabled', 'false');
    });
  });
}

/** `Service:Api:DisabledModules=Job` removes the routes and never starts the engine. */
export function defineJobsKillSwitchContract(dbType: DbType): void {
  describe(`the Job kill-switch on ${dbType}`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({ dbType, env: { Service__Api__DisabledModules__0: 'Job' } });
    });
    afterAll(() => t?.close());

    it('removes every job route and the engine', async () => {
      const admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
      expect(t.server.jobs).toBeUndefined();
      expect((await t.request('/api/v1/sys/job/page', { headers: admin })).status).toBe(404);
      expect(
        (await t.request('/api/v1/sys/job/preview-cron', { headers: admin, json: { cron: '* * * * * *' } }))
          .status,
      ).toBe(404);
      expect(t.server.routes.routes.some((r) => r.path.startsWith('/api/v1/sys/job'))).toBe(false);
      expect(await t.server.database.repos.jobs.getByCode('sys-job-log-cleanup')).toBeUndefined();
    });
  });
}

/**
 * With `AllowPrivateHttpTargets` and `AllowSqlJobs` on: an HTTP job calls its target (with the default timeout
 * when it has none, its secrets masked in answers and kept on update), a SQL job runs one statement, only for a
 * super administrator, stopped on the server at its timeout.
 */
export function defineJobsHandlerKindsContract(dbType: DbType): void {
  describe(`HTTP and SQL jobs when allowed on ${dbType}`, () => {
    let t: TestServer;
    let admin: Record<string, string>;
    const bodies: string[] = [];
    const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
    const target = createHttpServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString('utf8');
      });
      req.on('end', () => {
        bodies.push(`${req.method} ${req.url} ${req.headers['x-job'] ?? ''} ${body}`);
        seen.push({ url: req.url ?? '', headers: req.headers });
        if (req.url === '/hang') return; // never answers
        // An endpoint that reflects what it got, as an attacker's target would.
        if (req.url?.startsWith('/reflect'))
          return res
            .writeHead(200)
            .end(JSON.stringify({ seen: req.headers.authorization ?? null, headers: req.headers }));
        if (req.url === '/big') return res.writeHead(200).end('é'.repeat(3000));
        if (req.url === '/pw') return res.writeHead(200).end('{"user":{"password":"x","name":"n"}}');
        if (req.url === '/text') return res.writeHead(200).end(`Authorization: ${req.headers.authorization}`);
        res.writeHead(req.url === '/fail' ? 500 : 200).end('pong');
      });
    });
    let port = 0;
    beforeAll(async () => {
      await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
      port = (target.address() as AddressInfo).port;
      t = await startTestServer({
        dbType,
        env: {
          Service__Jobs__AllowPrivateHttpTargets: 'true',
          Service__Jobs__AllowSqlJobs: 'true',
          Service__Jobs__HttpTimeoutSeconds: '1',
          Service__Security__RateLimit__Enabled: 'false',
        },
      });
      admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
    });
    afterAll(async () => {
      await t?.close();
      target.closeAllConnections();
      await new Promise<void>((r) => target.close(() => r()));
    });
    const call = async (path: string, init: RequestInit & { json?: unknown } = {}) =>
      json(
        await t.request(path, {
          ...init,
          headers: { ...admin, ...(init.headers as Record<string, string>) },
        }),
      );
    const runAndWait = async (body: Record<string, unknown>) => {
      const created = await call('/api/v1/sys/job', {
        json: { name: String(body.code), triggerKind: 2, intervalSeconds: 3600, ...body },
      });
      expect(created.code, JSON.stringify(created)).toBe(0);
      expect((await call(`/api/v1/sys/job/${created.data.id}/run`, { method: 'POST' })).code).toBe(0);
      return waitFor(
        async () => {
          const page = await t.server.database.repos.jobLogs.page({ jobId: created.data.id });
          return page.items.find((r) => r.runStatus !== 'running');
        },
        `the run of ${String(body.code)}`,
      );
    };

    it('runs an HTTP job against its target, and fails it on an error status', async () => {
      expect((await call('/api/v1/sys/job/handlers')).data).toMatchObject({
        sqlAllowed: true,
        privateHttpAllowed: true,
      });
      const props = {
        url: `http://127.0.0.1:${port}/ping`,
        method: 'POST',
        headers: { 'x-job': 'yes' },
        body: '{"a":1}',
      };
      const row = await runAndWait({ code: 'http-ok', handlerKind: 2, propsJson: JSON.stringify(props) });
      expect(row).toMatchObject({ runStatus: 'success', messageText: 'HTTP 200: pong' });
      expect(bodies).toContain('POST /ping yes {"a":1}');
      const failed = await runAndWait({
        code: 'http-fail',
        handlerKind: 2,
        propsJson: JSON.stringify({ url: `http://127.0.0.1:${port}/fail` }),
      });
      expect(failed.runStatus).toBe('failed');
      expect(failed.errorText).toMatch(/HTTP 500/);
    });

    it('runs a SQL job', async () => {
      const row = await runAndWait({
        code: 'sql-ok',
        handlerKind: 3,
        propsJson: JSON.stringify({ sql: "update sys_job set remark = 'touched' where code = 'sql-ok'" }),
      });
      expect(row.runStatus, row.errorText ?? '').toBe('success');
      expect((await t.server.database.repos.jobs.getByCode('sql-ok'))?.remark).toBe('touched');
    });

    it('times out an HTTP job without a timeout of its own (Service:Jobs:HttpTimeoutSeconds)', async () => {
      const row = await runAndWait({
        code: 'http-hang',
        handlerKind: 2,
        propsJson: JSON.stringify({ url: `http://127.0.0.1:${port}/hang` }),
      });
      expect(row).toMatchObject({ runStatus: 'timeout', errorText: 'the run timed out' });
      expect((await t.server.database.repos.jobs.getByCode('http-hang'))?.timeoutSeconds).toBe(0);
    });

    it('leaves SQL jobs to super administrators: create, change to or from SQL, run (41001)', async () => {
      await grantPermissions(t, {
        account: 'jobop',
        permissions: [
          'GET:/api/v1/sys/job/page',
          'GET:/api/v1/sys/job/handlers',
          'POST:/api/v1/sys/job',
          'PUT:/api/v1/sys/job/{id}',
          'POST:/api/v1/sys/job/{id}/run',
        ],
      });
      const operator = bearer((await login(t, 'jobop', TEST_USER_PASSWORD)).accessToken);
      const as = async (path: string, init: RequestInit & { json?: unknown } = {}) =>
        json(await t.request(path, { ...init, headers: operator }));
      const escalate = { sql: "update sys_user set is_super_admin = true where account = 'jobop'" };
      const sqlJob = (code: string) => ({
        code,
        name: code,
        handlerKind: 3,
        propsJson: JSON.stringify(escalate),
        triggerKind: 1,
        cronExpression: '0 0 0 1 1 ?',
      });
      expect((await as('/api/v1/sys/job/handlers')).data.sqlAllowed).toBe(false);
      const created = await as('/api/v1/sys/job', { json: sqlJob('op-sql') });
      expect(created.code).toBe(41001);
      expect(await t.server.database.repos.jobs.getByCode('op-sql')).toBeUndefined();
      // A SQL job a super administrator wrote: the operator can neither change nor run it …
      const owned = (await call('/api/v1/sys/job', { json: sqlJob('admin-sql') })).data.id as number;
      const { code: _code, ...edit } = sqlJob('admin-sql');
      expect((await as(`/api/v1/sys/job/${owned}`, { method: 'PUT', json: edit })).code).toBe(41001);
      const toHttp = {
        ...edit,
        handlerKind: 2,
        propsJson: JSON.stringify({ url: `http://127.0.0.1:${port}/x` }),
      };
      expect((await as(`/api/v1/sys/job/${owned}`, { method: 'PUT', json: toHttp })).code).toBe(41001);
      expect((await as(`/api/v1/sys/job/${owned}/run`, { method: 'POST' })).code).toBe(41001);
      expect(await t.server.database.repos.jobLogs.page({ jobId: owned })).toMatchObject({ total: 0 });
      // … nor turn a job of theirs into one.
      const own = await as('/api/v1/sys/job', { json: { ...toHttp, code: 'op-http' } });
      expect(own.code).toBe(0);
      expect((await as(`/api/v1/sys/job/${own.data.id}`, { method: 'PUT', json: edit })).code).toBe(41001);
      expect((await t.server.database.repos.jobs.get(own.data.id))?.handlerKind).toBe(2);
      expect((await t.server.database.repos.users.findLiveByAccounts(['jobop']))[0]?.isSuperAdmin).toBe(
        false,
      );
    });

    it('leaves resuming a SQL job to super administrators too: a paused one stays paused (41001)', async () => {
      await grantPermissions(t, {
        account: 'jobresumer',
        permissions: ['GET:/api/v1/sys/job/page', 'PUT:/api/v1/sys/job/{id}/enabled'],
      });
      const operator = bearer((await login(t, 'jobresumer', TEST_USER_PASSWORD)).accessToken);
      const as = async (path: string, init: RequestInit & { json?: unknown } = {}) =>
        json(await t.request(path, { ...init, headers: operator }));
      const created = await call('/api/v1/sys/job', {
        json: {
          code: 'paused-sql',
          name: 'paused-sql',
          handlerKind: 3,
          propsJson: JSON.stringify({
            sql: "update sys_user set is_super_admin = true where account = 'jobresumer'",
          }),
          triggerKind: 2,
          intervalSeconds: 3600,
        },
      });
      expect(created.code, JSON.stringify(created)).toBe(0);
      const id = created.data.id as number;
      // Stopping one stays open to whoever may pause jobs …
      expect((await as(`/api/v1/sys/job/${id}/enabled?enabled=false`, { method: 'PUT' })).code).toBe(0);
      expect((await t.server.database.repos.jobs.get(id))?.status).toBe(2);
      // … but a resumed SQL job runs its statement again: as a run now, a super administrator's alone.
      const resumed = await as(`/api/v1/sys/job/${id}/enabled?enabled=true`, { method: 'PUT' });
      expect(resumed).toMatchObject({ code: 41001, args: { reason: 'sql-job' } });
      expect((await t.server.database.repos.jobs.get(id))?.status).toBe(2);
      expect((await call(`/api/v1/sys/job/${id}/enabled?enabled=true`, { method: 'PUT' })).code).toBe(0);
      expect((await t.server.database.repos.jobs.get(id))?.status).toBe(1);
      expect((await call(`/api/v1/sys/job/${id}`, { method: 'DELETE' })).code).toBe(0);
    });

    it('runs one statement per SQL job, and shows only the database message of a failure', async () => {
      const multi = await runAndWait({
        code: 'sql-multi',
        handlerKind: 3,
        propsJson: JSON.stringify({
          sql: "update sys_job set remark = 'multi-1' where code = 'sql-multi'; update sys_job set remark = 'multi-2' where code = 'sql-multi'",
        }),
      });
      expect(multi.runStatus).toBe('failed');
      expect((await t.server.database.repos.jobs.getByCode('sql-multi'))?.remark).toBeNull();
      const missing = await runAndWait({
        code: 'sql-missing',
        handlerKind: 3,
        propsJson: JSON.stringify({ sql: 'select * from no_such_table_here' }),
      });
      expect(missing.runStatus).toBe('failed');
      expect(missing.errorText).toMatch(/no_such_table_here/);
      for (const text of [missing.errorText, multi.errorText])
        expect(text).not.toMatch(/\n\s+at |file:|node_modules|Failed query/);
    });

    it.skipIf(dbType === 'Sqlite')(
      "stops a SQL job's statement on the server at its timeout, for that statement only",
      async () => {
        // One connection, so the statement and the reads around it share it; the command timeout (10 min) is
        // far beyond the statement's own.
        const database = await openDatabase({
          dbType,
          connectionString: t.database.connectionString,
          contentRoot: t.contentRoot,
          poolSize: 1,
          commandTimeoutMs: 600_000,
        });
        try {
          // The connection's own setting, read through the driver (PostgreSQL: postgres.js; MariaDB: mysql2).
          const client = (
            database.db as unknown as {
              $client: { unsafe(q: string): Promise<unknown>; query(q: string): Promise<unknown> };
            }
          ).$client;
          const read = async () => {
            if (dbType === 'PostgreSQL') {
              const rows = (await client.unsafe("select current_setting('statement_timeout') as v")) as {
                v: string;
              }[];
              return rows[0]?.v;
            }
            const [rows] = (await client.query('select @@SESSION.max_statement_time as v')) as [
              { v: unknown }[],
            ];
            return String(rows[0]?.v);
          };
          const before = await read();
          const sleep = dbType === 'PostgreSQL' ? 'select pg_sleep(120)' : 'select sleep(120)';
          const repos = createRepositories(database);
          // The database's own message (drizzle wraps it on MariaDB).
          const failure = async (work: Promise<unknown>) => {
            let error = await work.then(
              () => undefined,
              (e: unknown) => e,
            );
            while (error instanceof Error && error.cause instanceof Error) error = error.cause;
            return error instanceof Error ? error.message : String(error);
          };
          expect(await failure(repos.jobs.executeSql(sleep, { timeoutMs: 300 }))).toMatch(
            /canceling statement due to statement timeout|max_statement_time exceeded/,
          );
          expect(await read()).toBe(before);
          if (dbType === 'PostgreSQL') {
            // A kill cancels the statement too.
            const kill = new AbortController();
            const running = repos.jobs.executeSql(sleep, { signal: kill.signal });
            kill.abort();
            expect(await failure(running)).toMatch(/canceling statement due to user request/);
          }
        } finally {
          await database.close();
        }
      },
    );

    it('refuses HTTP job headers that no request could carry when the job is saved (48000)', async () => {
      let saved = 0;
      const save = (headers: Record<string, string>) =>
        call('/api/v1/sys/job', {
          json: {
            code: `hdr-${++saved}`,
            name: 'headers',
            handlerKind: 2,
            propsJson: JSON.stringify({ url: `http://127.0.0.1:${port}/h`, headers }),
            triggerKind: 2,
            intervalSeconds: 3600,
          },
        });
      const refusedHeaders: Record<string, string>[] = [
        { 'X-Split': 'a\r\nX-Injected: 1' },
        { 'X-Nul': 'a\u0000b' },
        { 'X-Wide': 'caf\u00e9 \u4e2d' },
        { 'Bad Name': 'v' },
        { 'X-Colon:': 'v' },
        { '': 'v' },
      ];
      for (const headers of refusedHeaders) {
        const refused = await save(headers);
        expect(refused.code, JSON.stringify(headers)).toBe(48000);
        expect(refused.args.errors[0]).toMatchObject({ path: 'propsJson' });
      }
      const fine = await save({ 'X-Latin': 'caf\u00e9\tok' });
      expect(fine.code).toBe(0);
      expect((await call(`/api/v1/sys/job/${fine.data.id}`, { method: 'DELETE' })).code).toBe(0);
    });

    it('drops the secret headers of an HTTP job whose URL or method changes; the run log keeps 1 KiB, masked', async () => {
      const props = {
        url: `http://127.0.0.1:${port}/secret`,
        method: 'POST',
        headers: { Authorization: 'Bearer S3CRET', Accept: 'text/plain' },
      };
      const created = await call('/api/v1/sys/job', {
        json: {
          code: 'http-moved',
          name: 'm',
          handlerKind: 2,
          propsJson: JSON.stringify(props),
          triggerKind: 2,
          intervalSeconds: 3600,
        },
      });
      expect(created.code).toBe(0);
      const id = created.data.id as number;
      const save = (changes: Record<string, unknown>) =>
        call(`/api/v1/sys/job/${id}`, {
          method: 'PUT',
          json: {
            name: 'm',
            handlerKind: 2,
            propsJson: JSON.stringify({
              ...props,
              headers: { Authorization: '***', Accept: 'text/plain' },
              ...changes,
            }),
            triggerKind: 2,
            intervalSeconds: 3600,
          },
        });
      const stored = async () => JSON.parse((await t.server.database.repos.jobs.get(id))?.propsJson ?? '{}');
      const runLog = async () => {
        const before = (await t.server.database.repos.jobLogs.page({ jobId: id })).total;
        seen.length = 0;
        expect((await call(`/api/v1/sys/job/${id}/run`, { method: 'POST' })).code).toBe(0);
        const row = await waitFor(async () => {
          const page = await t.server.database.repos.jobLogs.page({ jobId: id, size: 100 });
          return page.total > before && page.items.every((r) => r.runStatus !== 'running') && page.items;
        }, 'the run');
        return { text: JSON.stringify(row), headers: seen.at(-1)?.headers };
      };
      // The same target (a host in other case is the same host): the secret stays and is sent.
      expect((await save({ url: `http://127.0.0.1:${port}/secret` })).code).toBe(0);
      expect((await stored()).headers.Authorization).toBe('Bearer S3CRET');
      // Path only, query only, host only, port only, method only: the secret is dropped, never sent, never logged.
      for (const changes of [
        { url: `http://127.0.0.1:${port}/reflect` },
        { url: `http://127.0.0.1:${port}/reflect?x=1` },
        { url: `http://localhost:${port}/reflect` },
        { url: `http://LOCALHOST:${port}/reflect`, method: 'GET' },
        { url: `http://127.0.0.1:${port}/reflect-home`, method: 'GET' },
      ]) {
        // Each starts from the job with its secret.
        await t.server.database.repos.jobs.update(id, {
          propsJson: JSON.stringify({ ...props, url: `http://127.0.0.1:${port}/reflect-home` }),
        });
        expect((await save(changes)).code, JSON.stringify(changes)).toBe(0);
        expect((await stored()).headers, JSON.stringify(changes)).toEqual({ Accept: 'text/plain' });
        const run = await runLog();
        expect(run.headers?.authorization, JSON.stringify(changes)).toBeUndefined();
        expect(run.text).not.toContain('S3CRET');
      }
      // Supplied again, the secret is taken for the new target; a reflected secret is masked in the run log.
      expect(
        (await save({ url: `http://127.0.0.1:${port}/reflect`, headers: { Authorization: 'Bearer N3W' } }))
          .code,
      ).toBe(0);
      const echoed = await runLog();
      expect(echoed.headers?.authorization).toBe('Bearer N3W');
      expect(echoed.text).not.toContain('N3W');
      expect(echoed.text).toContain('HTTP 200');
      for (const [path, absent, present] of [
        ['/text', 'N3W', 'not kept'],
        ['/pw', '\\"x\\"', 'password'],
      ] as const) {
        expect(
          (await save({ url: `http://127.0.0.1:${port}${path}`, headers: { Authorization: 'Bearer N3W' } }))
            .code,
        ).toBe(0);
        const logged = (await runLog()).text;
        expect(logged, path).not.toContain(absent);
        expect(logged, path).toContain(present);
      }
      // A body over 1 KiB is cut to its first 1024 bytes (on a character boundary).
      expect((await save({ url: `http://127.0.0.1:${port}/big`, headers: {} })).code).toBe(0);
      await runLog();
      const page = await t.server.database.repos.jobLogs.page({ jobId: id, size: 100 });
      const big = page.items.find((r) => r.messageText?.includes('é'))?.messageText ?? '';
      expect(big.startsWith(`HTTP 200: ${'é'.repeat(512)}…`)).toBe(true);
      expect(big).not.toContain('é'.repeat(513));
    });

    it('never orders the job page by its props, whose secrets it masks (sorting would read them)', async () => {
      // Created so that the id order is the reverse of the secrets' order.
      const ids: number[] = [];
      for (const [n, secret] of [
        [1, 'Bearer Zz'],
        [2, 'Bearer Aa'],
      ] as const) {
        const created = await call('/api/v1/sys/job', {
          json: {
            code: `sort-oracle-${n}`,
            name: `sort-oracle-${n}`,
            handlerKind: 2,
            propsJson: JSON.stringify({
              url: `http://127.0.0.1:${port}/x`,
              headers: { Authorization: secret },
            }),
            triggerKind: 2,
            intervalSeconds: 3600,
          },
        });
        expect(created.code).toBe(0);
        ids.push(created.data.id);
      }
      for (const field of ['propsJson', 'props_json', 'PROPSJSON'])
        for (const order of ['asc', 'desc']) {
          const page = await call(
            `/api/v1/sys/job/page?name=sort-oracle&sortField=${field}&sortOrder=${order}`,
          );
          expect(page.data.items.map((j: { id: number }) => j.id)).toEqual(ids);
        }
      // A column that is shown is still sorted by.
      const byName = await call('/api/v1/sys/job/page?name=sort-oracle&sortField=name&sortOrder=desc');
      expect(byName.data.items.map((j: { id: number }) => j.id)).toEqual([...ids].reverse());
      for (const id of ids) expect((await call(`/api/v1/sys/job/${id}`, { method: 'DELETE' })).code).toBe(0);
    });

    it('masks secrets of job props in answers, and keeps a stored secret an update sends back as ***', async () => {
      const props = {
        url: `http://robot:pa55word@127.0.0.1:${port}/secret`,
        method: 'POST',
        headers: { Authorization: 'Bearer S3CRET', 'X-Api-Key': 'K3Y', Accept: 'text/plain' },
        body: 'hello',
      };
      const created = await call('/api/v1/sys/job', {
        json: {
          code: 'http-secret',
          name: 'secret',
          handlerKind: 2,
          propsJson: JSON.stringify(props),
          triggerKind: 2,
          intervalSeconds: 3600,
        },
      });
      expect(created.code).toBe(0);
      const compiled = await call('/api/v1/sys/job', {
        json: {
          code: 'compiled-secret',
          name: 'compiled',
          handlerKind: 1,
          handlerName: 'sys-job-log-cleanup',
          propsJson: JSON.stringify({ region: 'eu', apiToken: 'T0KEN', nested: [{ password: 'PW' }] }),
          triggerKind: 2,
          intervalSeconds: 3600,
        },
      });
      expect(compiled.code).toBe(0);
      const page = await call('/api/v1/sys/job/page?size=100');
      const shown = (code: string) =>
        (page.data.items as { code: string; propsJson: string }[]).find((j) => j.code === code)?.propsJson ??
        '';
      expect(JSON.parse(shown('http-secret'))).toEqual({
        ...props,
        url: `http://robot:***@127.0.0.1:${port}/secret`,
        headers: { Authorization: '***', 'X-Api-Key': '***', Accept: 'text/plain' },
      });
      expect(JSON.parse(shown('compiled-secret'))).toEqual({
        region: 'eu',
        apiToken: '***',
        nested: [{ password: '***' }],
      });
      for (const secret of ['S3CRET', 'K3Y', 'pa55word', 'T0KEN', 'PW'])
        expect(JSON.stringify(page.data)).not.toContain(secret);

      // The form saves the masked text with one change: the stored secrets stay, the change is taken.
      const edited = JSON.parse(shown('http-secret'));
      edited.headers.Accept = 'application/json';
      const update = (propsJson: string) =>
        call(`/api/v1/sys/job/${created.data.id}`, {
          method: 'PUT',
          json: { name: 'secret', handlerKind: 2, propsJson, triggerKind: 2, intervalSeconds: 3600 },
        });
      expect((await update(JSON.stringify(edited))).code).toBe(0);
      const stored = JSON.parse((await t.server.database.repos.jobs.get(created.data.id))?.propsJson ?? '');
      expect(stored).toEqual({ ...props, headers: { ...props.headers, Accept: 'application/json' } });
      seen.length = 0;
      expect((await call(`/api/v1/sys/job/${created.data.id}/run`, { method: 'POST' })).code).toBe(0);
      const hit = await waitFor(async () => seen.find((s) => s.url === '/secret'), 'the call');
      expect(hit.headers).toMatchObject({
        authorization: 'Bearer S3CRET',
        'x-api-key': 'K3Y',
        accept: 'application/json',
      });

      // *** where nothing is stored is refused, on update and on create.
      const bad = await update(
        JSON.stringify({ ...edited, headers: { ...edited.headers, 'X-Other': '***' } }),
      );
      expect(bad.code).toBe(48000);
      expect(bad.args.errors[0]).toMatchObject({ path: 'propsJson' });
      expect(bad.args.errors[0].message).toContain('headers.X-Other');
      const fresh = await call('/api/v1/sys/job', {
        json: {
          code: 'http-masked',
          name: 'm',
          handlerKind: 2,
          propsJson: shown('http-secret'),
          triggerKind: 2,
          intervalSeconds: 3600,
        },
      });
      expect(fresh.code).toBe(48000);
      // A secret replaced by a new value is the new value.
      edited.headers.Authorization = 'Bearer N3W';
      expect((await update(JSON.stringify(edited))).code).toBe(0);
      const replaced = JSON.parse((await t.server.database.repos.jobs.get(created.data.id))?.propsJson ?? '');
      expect(replaced.headers).toEqual({
        Authorization: 'Bearer N3W',
        'X-Api-Key': 'K3Y',
        Accept: 'application/json',
      });

      // A kept URL password goes only where it went: the masked text pointed elsewhere is refused, stores nothing.
      const masked = JSON.parse(
        (await call('/api/v1/sys/job/page?size=100')).data.items.find(
          (j: { code: string }) => j.code === 'http-secret',
        ).propsJson,
      );
      for (const url of [
        `http://robot:***@127.0.0.1:${port + 1}/secret`,
        `http://robot:***@127.0.0.1:${port}/reflect`,
      ]) {
        const moved = await update(JSON.stringify({ ...masked, url }));
        expect(moved.code, url).toBe(48000);
        expect(moved.args.errors[0].message, url).toContain('same URL');
      }
      const compiledUpdate = (props: Record<string, unknown>) =>
        call(`/api/v1/sys/job/${compiled.data.id}`, {
          method: 'PUT',
          json: {
            name: 'compiled',
            handlerKind: 1,
            handlerName: 'sys-job-log-cleanup',
            propsJson: JSON.stringify(props),
            triggerKind: 2,
            intervalSeconds: 3600,
          },
        });
      const otherProps = await compiledUpdate({
        region: 'https://evil.example',
        apiToken: '***',
        nested: [{ password: '***' }],
      });
      expect(otherProps.code).toBe(48000);
      expect(
        (await compiledUpdate({ region: 'eu', apiToken: '***', nested: [{ password: '***' }] })).code,
      ).toBe(0);
      const kept = JSON.parse((await t.server.database.repos.jobs.get(compiled.data.id))?.propsJson ?? '');
      expect(kept).toEqual({ region: 'eu', apiToken: 'T0KEN', nested: [{ password: 'PW' }] });
      expect(JSON.parse((await t.server.database.repos.jobs.get(created.data.id))?.propsJson ?? '').url).toBe(
        props.url,
      );
    });
  });
}

/**
 * The kernel's own Panic alert (no consumer alert given): a job that reaches its failure threshold with
 * `alertByNotice` puts a notice in every super administrator's inbox; one without it goes to Panic silently.
 */
export function defineJobsPanicNoticeContract(dbType: DbType): void {
  describe(`Panic alerts as notices on ${dbType}`, () => {
    let t: TestServer;
    let admin: Record<string, string>;
    beforeAll(async () => {
      t = await startTestServer({
        dbType,
        env: { Service__Security__RateLimit__Enabled: 'false' },
        modules: [
          defineModule({
            name: 'JobsTest',
            jobs: () => [
              {
                name: 'test.fail',
                handler: async () => {
                  throw new Error('always');
                },
              },
            ],
          }),
        ],
      });
      admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
    });
    afterAll(() => t?.close());

    const call = async (path: string, init: RequestInit & { json?: unknown } = {}) =>
      json(await t.request(path, { ...init, headers: admin }));
    const failing = async (code: string, alertByNotice: boolean) => {
      const res = await call('/api/v1/sys/job', {
        json: {
          code,
          name: code,
          handlerKind: 1,
          handlerName: 'test.fail',
          triggerKind: 1,
          cronExpression: '0 0 0 1 1 ?',
          failAlertThreshold: 1,
          alertByNotice,
        },
      });
      expect(res, JSON.stringify(res)).toMatchObject({ code: 0 });
      return res.data.id as number;
    };
    const panicked = (id: number) =>
      waitFor(async () => (await t.server.database.repos.jobs.get(id))?.status === 4, `job ${id} in Panic`);

    it('sends a notice to the super administrators only for a job that asks for it', async () => {
      const quiet = await failing('panic-quiet', false);
      expect((await call(`/api/v1/sys/job/${quiet}/run`, { method: 'POST' })).code).toBe(0);
      await panicked(quiet);
      const loud = await failing('panic-loud', true);
      expect((await call(`/api/v1/sys/job/${loud}/run`, { method: 'POST' })).code).toBe(0);
      await panicked(loud);
      await waitFor(
        async () => (await call('/api/v1/sys/notice/unread-count')).data === 1,
        'one unread notice',
      );
      const mine = (await call('/api/v1/sys/notice/mine?size=50')).data.items as {
        title: string;
        content: string;
      }[];
      expect(mine).toHaveLength(1);
      expect(mine[0]?.title).toBe('Job panic-loud (panic-loud) is in Panic');
      expect(mine[0]?.content).toContain('failed 1 times in a row');
    });
  });
}
