/**
 * Builds the scheduled jobs of one server: the engine (BullMQ on the cache Redis for several instances, in-process
 * timers otherwise), the handler policy, the service the routes call and the handler of the seeded clean-up job.
 * Framework-free: module `Job` of @svc/http builds it once in its services, a worker process or a script can too.
 */

import type { Repositories } from '@svc/data';
import type { Cache } from '@svc/data/cache';
import type { Configuration, Logger } from '@svc/kernel';
import { createBullMqDispatcher, createInProcessDispatcher } from './dispatchers.js';
import { createJobEngine, type JobEngineDeps, logCleanupHandler } from './engine.js';
import type { Resolve } from './fence.js';
import { createHandlerResolver, type HandlerPolicy } from './handlers.js';
import { bullMqSelection, jobLibraryNeeds } from './libraries.js';
import type { JobsOptions } from './options.js';
import { createJobService, type JobService, LOG_CLEANUP_JOB } from './service.js';
import type { AlertAdministrators, JobEngine, JobHandlerEntry, JobReclaimer } from './types.js';

/** What the composition (module `Job`, or a script) passes in besides the layers below. */
export interface JobSystemOptions {
  /** Compiled handlers registered at once (more can be added with `engine.register` before `start`). */
  handlers?: readonly JobHandlerEntry[] | undefined;
  /** Called when a job with `alertByNotice` goes to Panic. @default logs a warning */
  alertAdministrators?: AlertAdministrators | undefined;
  /** What the seeded log clean-up job runs after the run log (read at each run). @default none */
  reclaimers?: (() => readonly JobReclaimer[]) | undefined;
  /** DNS lookup of the HTTP fence (tests). */
  resolve?: Resolve | undefined;
}

export interface JobSystem {
  engine: JobEngine;
  service: JobService;
  /**
   * The handler of the seeded `sys-job-log-cleanup` job (old run-log rows, then the reclaimers). Not registered
   * here: register it with the other handlers (module `Job` declares it as its own).
   */
  logCleanup: JobHandlerEntry;
  /** Seeds the system jobs and starts the engine. */
  start(): Promise<void>;
  stop(options?: { graceful?: boolean }): Promise<void>;
}

export interface JobSystemDeps {
  /** `Service:Cache` (the BullMQ engine runs on the cache's Redis). */
  config: Pick<Configuration, 'service'>;
  /** The module's options (`Service:Jobs`). */
  options: JobsOptions;
  repos: Repositories;
  cache: Cache;
  /** The cache's health when it is the Redis one: the engine's sweep reads node heartbeats only while it serves. */
  cacheHealth?: JobEngineDeps['cacheHealth'];
  logger: Logger;
  now: () => Date;
}

/**
 * @example
 * const jobs = createJobSystem({ config, options, repos, cache, logger, now }, { handlers: [report] });
 * jobs.engine.register(jobs.logCleanup.name, jobs.logCleanup.handler);
 * await jobs.start();
 */
export function createJobSystem(deps: JobSystemDeps, options: JobSystemOptions = {}): JobSystem {
  const service = deps.config.service;
  const jobsOptions = deps.options;
  const logger = deps.logger.child('Service.Jobs');
  const redisUrl = service.Cache.Provider === 'Redis' ? service.Cache.Redis.Configuration : null;
  const bull = bullMqSelection(jobsOptions, service.Cache);
  if (bull && !redisUrl)
    throw new Error('Service:Jobs:Engine BullMQ needs Service:Cache:Redis:Configuration.');
  const dispatcher =
    bull && redisUrl
      ? createBullMqDispatcher({
          libraries: jobLibraryNeeds(bull),
          redisUrl,
          prefix: `${service.Cache.Redis.KeyPrefix.replace(/:+$/, '')}:bull`,
          queueName: jobsOptions.QueueName,
          stalledIntervalMs: jobsOptions.StalledIntervalMs,
          lockDurationMs: jobsOptions.LockDurationMs,
          now: deps.now,
          logger,
        })
      : createInProcessDispatcher(deps.now);
  const policy: HandlerPolicy = {
    allowPrivateHttpTargets: () => jobsOptions.AllowPrivateHttpTargets,
    allowSqlJobs: () => jobsOptions.AllowSqlJobs,
    jobs: deps.repos.jobs,
    resolve: options.resolve,
  };
  const engine = createJobEngine({
    jobs: deps.repos.jobs,
    jobLogs: deps.repos.jobLogs,
    cache: deps.cache,
    logger,
    now: deps.now,
    options: jobsOptions,
    dispatcher,
    resolveHandler: createHandlerResolver(policy),
    alertAdministrators:
      options.alertAdministrators ??
      (async (job, text) => logger.warn(`Job alert (no notice publisher wired): ${text}`, { jobId: job.id })),
    handlers: options.handlers,
    takeoverGraceMs: 2 * (jobsOptions.LockDurationMs + jobsOptions.StalledIntervalMs),
    ...(deps.cacheHealth ? { cacheHealth: deps.cacheHealth } : {}),
  });
  const jobService = createJobService({
    jobs: deps.repos.jobs,
    jobLogs: deps.repos.jobLogs,
    engine,
    policy,
    now: deps.now,
  });
  return {
    engine,
    service: jobService,
    logCleanup: {
      name: LOG_CLEANUP_JOB,
      description: 'Deletes run-log rows older than Service:Jobs:LogRetentionDays and runs the reclaimers.',
      handler: logCleanupHandler({
        jobLogs: deps.repos.jobLogs,
        retentionDays: () => jobsOptions.LogRetentionDays,
        reclaimers: () => options.reclaimers?.() ?? [],
        now: deps.now,
      }),
    },
    async start() {
      await jobService.ensureSystemJobs();
      await engine.start();
    },
    stop: (opts) => engine.stop(opts),
  };
}
