/**
 * Job handlers come from modules: the Job module registers the compiled handlers of every enabled module (its
 * own log clean-up handler among them), none of a disabled module, and start-up refuses two modules declaring one
 * handler name, naming both. The engine starts after the other modules started and stops before they close.
 */

import { BusinessError, ErrorCode } from '@svc/kernel';
import { JobErrorCode } from '@svc/modules';
import { describe, expect, it } from 'vitest';
import { StartupError } from '../../host/startup-error.js';
import { defineModule } from '../../module/define.js';
import { bearer, json, login } from '../../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../../testing/index.js';
import { jobModule } from './index.js';

const reports = defineModule({
  name: 'Reports',
  services: () => ({ made: 'report' }),
  jobs: (services) => [
    { name: 'reports.daily', description: 'Makes the daily report', handler: async () => services.made },
  ],
});

const handlerNames = async (t: TestServer) => {
  const token = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
  const res = await json(await t.request('/api/v1/sys/job/handlers', { headers: bearer(token) }));
  return (res.data.handlers as { name: string; description: string | null }[]).map((h) => h.name);
};

describe('job handlers declared by modules', () => {
  it('registers the handlers of an enabled module beside the Job module’s own', async () => {
    const t = await startTestServer({ modules: [reports] });
    try {
      expect(await handlerNames(t)).toEqual(['reports.daily', 'sys-job-log-cleanup']);
      expect(t.server.jobs?.engine.handlers().find((h) => h.name === 'reports.daily')).toMatchObject({
        description: 'Makes the daily report',
      });
      expect(t.server.modules.jobs().handlers.map((h) => [h.module, h.name])).toEqual([
        ['Job', 'sys-job-log-cleanup'],
        ['Reports', 'reports.daily'],
      ]);
    } finally {
      await t.close();
    }
  });

  it('registers none of a disabled module', async () => {
    const t = await startTestServer({
      modules: [reports],
      env: { Service__Api__DisabledModules__0: 'Reports' },
    });
    try {
      expect(await handlerNames(t)).toEqual(['sys-job-log-cleanup']);
    } finally {
      await t.close();
    }
  });

  const refusal = (modules: Parameters<typeof startTestServer>[0]) =>
    startTestServer(modules).then(
      async (t) => {
        await t.close();
        return undefined;
      },
      (e: unknown) => e,
    );

  it('refuses two modules declaring one handler name, naming both', async () => {
    const twin = defineModule({
      name: 'Billing',
      jobs: () => [{ name: 'reports.daily', handler: async () => undefined }],
    });
    const error = await refusal({ modules: [reports, twin] });
    expect(error).toBeInstanceOf(StartupError);
    expect((error as Error).message).toBe(
      'The job handler reports.daily is declared by module Reports and by module Billing.',
    );
    const own = defineModule({
      name: 'Cleaner',
      jobs: () => [{ name: 'sys-job-log-cleanup', handler: async () => undefined }],
    });
    expect(((await refusal({ modules: [own] })) as Error).message).toBe(
      'The job handler sys-job-log-cleanup is declared by module Job and by module Cleaner.',
    );
  });

  it('starts the engine after the other modules started and stops it before they close', async () => {
    const seen: string[] = [];
    /** What a run now answers at this moment: the engine refuses one while it is not running. */
    const engineState = async (jobs: NonNullable<TestServer['server']['jobs']>) =>
      jobs.engine.runNow(0).then(
        () => 'ran',
        (error: unknown) =>
          error instanceof BusinessError && error.code === ErrorCode.ServiceUnavailable.code
            ? 'not running'
            : `running (${(error as BusinessError).code})`,
      );
    const watcher = defineModule({
      name: 'Watcher',
      dependsOn: [jobModule],
      services: ({ use }) => use(jobModule),
      start: async ({ jobs }) => void seen.push(`start: ${await engineState(jobs)}`),
      close: async ({ jobs }) => void seen.push(`close: ${await engineState(jobs)}`),
    });
    const t = await startTestServer({ modules: [watcher] });
    try {
      const jobs = t.server.jobs as NonNullable<TestServer['server']['jobs']>;
      seen.push(`started: ${await engineState(jobs)}`);
    } finally {
      await t.close();
    }
    expect(seen).toEqual([
      'start: not running',
      `started: running (${JobErrorCode.JobNotFound.code})`,
      'close: not running',
    ]);
  });
});
