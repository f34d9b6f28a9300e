/**
 * The options of module `Job` (scheduled jobs): `Service:Jobs:…` in the configuration files,
 * `Service__Jobs__…` in the environment. Declared with the configuration's own leaves, so they take the
 * same forms as every other key and appear in the configuration reference (docs/configuration.md).
 */
import { bool, type Infer, int, oneOf, section, str } from '@svc/kernel';

export const jobsOptions = section({
  Engine: oneOf(
    ['Auto', 'InProcess', 'BullMQ'],
    'Auto',
    'Scheduled-job engine: Auto = BullMQ on the cache Redis when Provider is Redis, else in-process.',
  ),
  QueueName: str(
    'svc-jobs',
    'BullMQ queue name (under the cache key prefix); instances sharing it share jobs.',
  ),
  NodeName: str(null, 'Name of this instance in the run log (default: host name and process id).'),
  ScanSeconds: int(5, 'How often each instance makes sure the next fire of every Ready job is queued.', {
    min: 1,
    max: 3600,
  }),
  MisfireThresholdSeconds: int(
    30,
    'A fire picked up this much later than scheduled is a misfire (skipped or run once now, per job).',
    { min: 1, max: 86_400 },
  ),
  StalledIntervalMs: int(30_000, 'BullMQ: how often a worker looks for runs of dead instances.', {
    min: 100,
    max: 3_600_000,
  }),
  LockDurationMs: int(30_000, 'BullMQ: a run whose lock is not renewed for this long is taken over.', {
    min: 100,
    max: 3_600_000,
  }),
  KillAckMs: int(3000, 'How long a kill waits for the instance running the run to confirm it.', {
    min: 100,
    max: 60_000,
  }),
  LogRetentionDays: int(30, 'The log clean-up job deletes run-log rows older than this.', { min: 1 }),
  AllowPrivateHttpTargets: bool(
    false,
    'Let HTTP jobs call private, loopback and link-local addresses (refused with 47009 otherwise).',
  ),
  AllowSqlJobs: bool(
    false,
    'Allow SQL jobs (refused with 47008 otherwise); only a super administrator creates, changes or runs one.',
  ),
  HttpTimeoutSeconds: int(
    300,
    'Run timeout of an HTTP job whose timeoutSeconds is 0, so a target that never answers cannot hold a serial job for ever.',
    { min: 1, max: 86_400 },
  ),
  MaxParallelRuns: int(
    8,
    'Most runs of one parallel job alive at once across all instances; a scheduled fire beyond it is skipped, a run now answers 47006.',
    { min: 1, max: 1000 },
  ),
});

export type JobsOptions = Infer<typeof jobsOptions>;
