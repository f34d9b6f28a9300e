/**
 * Module `Job`: scheduled jobs (create, run, kill, the run log, the dashboard, cron preview). Its services are
 * the job system of @svc/modules, built once from the core; it runs the compiled handlers every enabled module
 * declares (`jobs` of the module definition, its own log clean-up handler among them), starts the engine after
 * the other modules started and stops it before they close (runs in flight are aborted and written first).
 * The seeded clean-up job runs the reclaimers the modules declare: this module's own, the retention of the logs
 * (`Logging:RetentionDays`) and, while module `Upload` is on, its abandoned chunks and deleted files. A Panic
 * alert goes to the alerts the modules declare, or else as a notice to the super administrators while module
 * `Notice` is on.
 */
import {
  bullMqSelection,
  createJobSystem,
  JobErrorCode,
  jobLibraryNeeds,
  jobsOptions,
  loadJobLibraries,
  logRetentionReclaimer,
  MODULE_PEERS_FROM,
} from '@svc/modules';
import { asStartupError } from '../../host/startup-error.js';
import { defineModule, moduleOptions } from '../../module/define.js';
import { noticeModule } from '../notice/index.js';
import { jobRecycleTypes } from './recycle-types.js';
import * as batchDelete from './routes/batch-delete.js';
import * as create from './routes/create.js';
import * as dashboard from './routes/dashboard.js';
import * as remove from './routes/delete.js';
import * as enabled from './routes/enabled.js';
import * as handlers from './routes/handlers.js';
import * as logClear from './routes/log-clear.js';
import * as logKill from './routes/log-kill.js';
import * as logPage from './routes/log-page.js';
import * as page from './routes/page.js';
import * as previewCron from './routes/preview-cron.js';
import * as run from './routes/run.js';
import * as update from './routes/update.js';
import type { JobServices } from './services.js';

export type { JobServices } from './services.js';

export const jobModule = defineModule({
  name: 'Job',
  options: moduleOptions('Jobs', jobsOptions),
  errorCodes: [JobErrorCode],
  optional: [noticeModule],
  runsJobs: true,
  // Before anything connects: the BullMQ engine runs on the cache's Redis.
  check: (options, { service }) =>
    bullMqSelection(options, service.Cache) &&
    !(service.Cache.Provider === 'Redis' && service.Cache.Redis.Configuration)
      ? [
          'Service:Jobs:Engine BullMQ needs Service:Cache:Provider Redis with Service:Cache:Redis:Configuration.',
        ]
      : [],
  // bullmq and ioredis for the BullMQ engine only; the in-process engine needs neither installed.
  libraries: (options, config) => {
    const bull = bullMqSelection(options, config.service.Cache);
    return bull ? [{ needs: jobLibraryNeeds(bull), load: loadJobLibraries, from: MODULE_PEERS_FROM }] : [];
  },
  services: ({ core, options, useOptional, moduleJobs }): JobServices => {
    const notice = useOptional(noticeModule)?.alertAdministrators;
    const jobs = createJobSystem(
      {
        config: core.config,
        options,
        repos: core.repos,
        cache: core.cache,
        ...(core.cacheHealth ? { cacheHealth: core.cacheHealth } : {}),
        logger: core.logger,
        now: core.now,
      },
      {
        reclaimers: () => moduleJobs().reclaimers,
        alertAdministrators: async (job, text) => {
          const declared = moduleJobs().alerts;
          if (declared.length > 0) {
            for (const alert of declared) await alert(job, text);
            return;
          }
          if (notice) await notice(`Job ${job.name} (${job.code}) is in Panic`.slice(0, 128), text);
          else
            core.logger
              .child('Service.Jobs')
              .warn(`Job alert (no notice publisher wired): ${text}`, { jobId: job.id });
        },
      },
    );
    return { jobs };
  },
  jobs: ({ jobs }) => [jobs.logCleanup],
  reclaimers: (_services, { core }) =>
    core.config.service.Logging.RetentionDays > 0
      ? [
          logRetentionReclaimer({
            repos: core.repos,
            retentionDays: core.config.service.Logging.RetentionDays,
          }),
        ]
      : [],
  recycleTypes: (_jobs, { core }) => jobRecycleTypes(core),
  routes: [
    page,
    handlers,
    dashboard,
    logPage,
    logClear,
    logKill,
    previewCron,
    batchDelete,
    create,
    update,
    remove,
    enabled,
    run,
  ],
  async start({ jobs }, { moduleJobs }) {
    for (const entry of moduleJobs().handlers)
      jobs.engine.register(
        entry.name,
        entry.handler,
        entry.description ? { description: entry.description } : {},
      );
    try {
      await jobs.start();
    } catch (error) {
      await jobs.stop().catch(() => {});
      throw asStartupError(error, 'The job engine could not start');
    }
  },
  // Runs in flight are aborted and written before the pools close.
  close: ({ jobs }) => jobs.stop(),
});
