/**
 * Scheduled jobs, framework-free: the engine (in-process timers, or BullMQ on Redis for several instances), the
 * handler kinds (compiled, HTTP behind the outbound fence, SQL), Quartz-style triggers, secrets in props, and the
 * service the routes of module `Job` call. bullmq and ioredis are optional peers, loaded only by the BullMQ engine.
 */
export { JobErrorCode } from './codes.js';
export {
  bullMqSelection,
  JOB_LIBRARIES,
  jobLibraryNeeds,
  loadJobLibraries,
} from './libraries.js';
export { type JobsOptions, jobsOptions } from './options.js';
export { maskPropsJson } from './secrets.js';
export {
  type Dashboard,
  type JobActor,
  type JobInput,
  type JobService,
  LOG_CLEANUP_JOB,
} from './service.js';
export {
  createJobSystem,
  type JobSystem,
  type JobSystemDeps,
  type JobSystemOptions,
} from './system.js';
export { storedCron } from './trigger.js';
export type {
  AlertAdministrators,
  JobContext,
  JobEngine,
  JobHandler,
  JobHandlerEntry,
  JobReclaimer,
} from './types.js';
