/**
 * The job engine: one core for both deliveries. A *dispatcher* delivers fires (in-process timers for a single
 * instance; a BullMQ queue on the cache Redis for several), the core runs them with the same semantics:
 *
 * - claim: a scheduled fire runs only if this instance moves the job's `next_run_time` from the fire's time to
 *   the next one (a conditional update, so of several instances delivering the same fire one claims it), and
 *   the run-log row is unique by fire and retry index;
 * - misfire: a fire picked up later than `MisfireThresholdSeconds` writes a `misfire-skip` row or runs once now
 *   (`catch-up`), and the next fire is computed from now (no burst of missed fires);
 * - serial-skip: a fire while another run of the job is running writes a `skipped` row (a run now answers 47006);
 *   the running row is written with the job's serial claim, unique in the database, so the check and the start
 *   are one insert across instances; parallel runs both, up to `MaxParallelRuns` runs of the job alive at once
 *   across instances (counted and written under a lock on the job's row), beyond which a fire is skipped and a
 *   run now answers 47006 in the same way;
 * - retries (one row per attempt, `retryIndex`), timeout (`timeout` row), kill (AbortSignal to the handler,
 *   `killed` row), Panic after `failAlertThreshold` consecutive failed fires, with an alert if asked;
 * - takeover: a fire delivered again while its row is `running` on another node means that node lost the
 *   fire (BullMQ moved the stalled job back): the row moves to this node and the run starts again here.
 *
 * Kill requests travel on the cache's publish/subscribe: the node holding the run aborts it and acknowledges.
 */

import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { JobFireMode, JobLogRepository, JobRepository, SysJobRow } from '@svc/data';
import { type Cache, type CacheHealth, CacheUnavailableError } from '@svc/data/cache';
import { BusinessError, ErrorCode, isBusinessError, type Logger } from '@svc/kernel';
import { JobErrorCode } from './codes.js';
import { nextFireTime } from './trigger.js';
import type {
  AlertAdministrators,
  Fire,
  JobContext,
  JobEngine,
  JobHandler,
  JobHandlerEntry,
  JobReclaimer,
} from './types.js';

/** The `Service:Jobs` options the engine reads. */
export interface JobEngineOptions {
  NodeName: string | null;
  QueueName: string;
  ScanSeconds: number;
  MisfireThresholdSeconds: number;
  KillAckMs: number;
  /** Run timeout of an HTTP job whose `timeoutSeconds` is 0. */
  HttpTimeoutSeconds: number;
  /** Most runs of one parallel job alive at once across all instances. */
  MaxParallelRuns: number;
}

/** Delivers fires; `enqueue` is idempotent by fire id. */
export interface Dispatcher {
  readonly kind: JobEngine['kind'];
  /** Whether a fire delivered again means its previous holder is gone (BullMQ stalled-job recovery). */
  readonly redeliversLostFires: boolean;
  start(process: (fire: Fire) => Promise<void>): Promise<void>;
  enqueue(fire: Fire): Promise<void>;
  stop(graceful: boolean): Promise<void>;
}

/** Resolves the handler of a job: compiled, HTTP or SQL (a refusal throws and fails the attempt). */
export type HandlerResolver = (job: SysJobRow, compiled: ReadonlyMap<string, JobHandlerEntry>) => JobHandler;

export interface JobEngineDeps {
  jobs: JobRepository;
  jobLogs: JobLogRepository;
  cache: Cache;
  logger: Logger;
  now: () => Date;
  options: JobEngineOptions;
  dispatcher: Dispatcher;
  resolveHandler: HandlerResolver;
  alertAdministrators: AlertAdministrators;
  /** Compiled handlers registered before start. */
  handlers?: readonly JobHandlerEntry[] | undefined;
  /** Fires further ahead than this are queued by a later scan. @default 24 h */
  horizonMs?: number;
  /**
   * How long a scheduled run of a stopped node is left for the dispatcher's own takeover before the sweep ends
   * it (BullMQ: lock duration plus stalled interval). @default 60 s
   */
  takeoverGraceMs?: number;
  /**
   * The cache's health when it is the Redis one (the resilient wrapper). Node heartbeats live in the shared store:
   * while it is down the cache answers from this instance's memory, where no other node's heartbeat is, so the
   * sweep leaves other nodes' runs alone then, and for one heartbeat lifetime after it returns (heartbeats may
   * have expired meanwhile; every live node writes its own again within that time).
   */
  cacheHealth?: {
    health(): CacheHealth;
    onStateChange(listener: (state: CacheHealth) => void): () => void;
  };
}

/** Scheduled fires share one id per job and time, so duplicate enqueues from several instances collapse. */
export const scheduledFireId = (jobId: number, at: Date | number) =>
  `f-${jobId}-${typeof at === 'number' ? at : at.getTime()}`;

type AbortKind = 'timeout' | 'killed' | 'shutdown';
class RunAbort extends Error {
  constructor(readonly kind: AbortKind) {
    super(
      kind === 'timeout'
        ? 'the run timed out'
        : kind === 'killed'
          ? 'killed on request'
          : 'instance stopping',
    );
  }
}

/**
 * Why an attempt did not start: another run of a serial job holds its claim, or a parallel job has `running`
 * runs alive, at least its cap.
 */
type Busy = { kind: 'serial' } | { kind: 'parallel'; running: number; maxParallel: number };

/** The run-log message of a fire (or of a retry) that gave way. */
const busyMessage = (busy: Busy, retry: boolean) =>
  busy.kind === 'serial'
    ? retry
      ? 'another run of the job started before this retry'
      : 'the previous run is still running'
    : `${busy.running} runs of the job are running, at the cap of ${busy.maxParallel} parallel runs (Service:Jobs:MaxParallelRuns)`;

interface KillRequest {
  logId: number;
  requestId: string;
}

/** For the application log: the error with its stack. */
const errorText = (error: unknown) =>
  error instanceof Error
    ? `${error.name}: ${error.message}${error.stack ? `\n${error.stack}` : ''}`
    : String(error);

/**
 * For the run log, which the API shows: what went wrong, never a stack (stacks carry server paths). A plain
 * `Error` by its message, others by name and message, a business error with its arguments.
 */
function runErrorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const args = isBusinessError(error) && error.args ? ` ${JSON.stringify(error.args)}` : '';
  return `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}${args}`;
}

export function createJobEngine(deps: JobEngineDeps): JobEngine {
  const { jobs, jobLogs, cache, now, options, dispatcher } = deps;
  const logger = deps.logger;
  const nodeName = options.NodeName ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 4)}`;
  const compiled = new Map<string, JobHandlerEntry>((deps.handlers ?? []).map((h) => [h.name, h]));
  const horizonMs = deps.horizonMs ?? 24 * 3600_000;
  const killChannel = `jobs:${options.QueueName}:kill`;
  const heartbeatKey = (node: string) => `jobs:${options.QueueName}:node:${node}`;
  /** A node that has not refreshed its heartbeat for this long is gone. */
  const heartbeatTtlMs = Math.max(3 * options.ScanSeconds * 1000, 10_000);
  const takeoverGraceMs = deps.takeoverGraceMs ?? 60_000;
  const ackChannel = `jobs:${options.QueueName}:kill-ack`;
  /** Runs on this node: log id → its abort controller. */
  const running = new Map<number, AbortController>();
  const settled = new Set<Promise<unknown>>();
  const pendingAcks = new Map<string, () => void>();
  const unsubscribe: (() => Promise<void>)[] = [];
  /** When the shared store last came back (service clock), or -Infinity when it has not been away since start. */
  let sharedBackAt = Number.NEGATIVE_INFINITY;
  let scanTimer: NodeJS.Timeout | undefined;
  const stopping = new AbortController();
  let state: 'new' | 'started' | 'stopped' | 'crashed' = 'new';
  const alive = () => state === 'started';

  const track = <T>(work: Promise<T>): Promise<T> => {
    settled.add(work);
    void work.finally(() => settled.delete(work)).catch(() => {});
    return work;
  };

  async function enqueueNext(job: Pick<SysJobRow, 'id'>, at: Date | null) {
    if (!at || at.getTime() - now().getTime() > horizonMs) return;
    await dispatcher.enqueue({
      id: scheduledFireId(job.id, at),
      jobId: job.id,
      scheduledTime: at.getTime(),
      mode: 'schedule',
    });
  }

  /** The scan in progress: the timer skips a tick while one runs; an explicit scan waits for it, then runs. */
  let scanning: Promise<void> | undefined;
  async function scan(): Promise<void> {
    while (scanning) await scanning.catch(() => {});
    if (!alive()) return;
    const work = (async () => {
      await sweepLostRuns().catch((error: unknown) =>
        logger.warn('Could not sweep lost runs', { error: errorText(error) }),
      );
      await scanJobs();
    })();
    scanning = work;
    try {
      await work;
    } finally {
      scanning = undefined;
    }
  }

  /**
   * Ends `running` rows whose node is gone and that nothing else will pick up: every such row with the
   * in-process engine (a previous life of this instance), manual runs with BullMQ, and scheduled fires that
   * BullMQ did not hand over within the takeover grace. Without this a serial job would be skipped for ever
   * after a crash.
   */
  async function sweepLostRuns(): Promise<void> {
    const at = now();
    await cache.set(heartbeatKey(nodeName), at.getTime(), heartbeatTtlMs);
    // Other nodes' heartbeats can be told only from the shared store, once it has had time to hold them again.
    const heartbeatsKnown =
      deps.cacheHealth === undefined ||
      (deps.cacheHealth.health() === 'Healthy' && at.getTime() - sharedBackAt >= heartbeatTtlMs);
    for (const row of await jobLogs.running()) {
      if (running.has(row.id) || at.getTime() - row.startTime.getTime() < heartbeatTtlMs) continue;
      if (row.nodeName !== nodeName && !heartbeatsKnown) continue;
      // A scheduled fire of a stopped node is BullMQ's to hand over; only a fire it gave up on (a second stall)
      // is ended here, once the takeover had its time.
      const redelivered = dispatcher.redeliversLostFires && !row.fireInstanceId.startsWith('m-');
      if (redelivered && at.getTime() - row.startTime.getTime() < heartbeatTtlMs + takeoverGraceMs) continue;
      if (row.nodeName !== nodeName && (await cache.has(heartbeatKey(row.nodeName)))) continue;
      const ended = await jobLogs.finish(row.id, row.nodeName, {
        runStatus: 'failed',
        endTime: at,
        elapsedMs: at.getTime() - row.startTime.getTime(),
        errorText: `node ${row.nodeName} stopped during the run`,
      });
      if (ended) logger.warn('Ended a run of a stopped node', { logId: row.id, node: row.nodeName });
    }
  }

  async function scanJobs(): Promise<void> {
    for (const job of await jobs.listByStatus(1)) {
      let next = job.nextRunTime;
      if (!next) {
        next = nextFireTime(job, now());
        if (!next) {
          await jobs.setStatus(job.id, 3, [1]);
          continue;
        }
        await jobs.setNextRunTime(job.id, next);
      }
      await enqueueNext(job, next).catch((error: unknown) =>
        logger.warn('Could not queue a fire (retried at the next scan)', {
          jobId: job.id,
          error: errorText(error),
        }),
      );
    }
  }

  async function processFire(fire: Fire): Promise<void> {
    if (!alive()) return;
    const job = await jobs.get(fire.jobId);
    if (!job) return;
    const scheduled = new Date(fire.scheduledTime);
    const at = now();
    const late = at.getTime() - scheduled.getTime() > options.MisfireThresholdSeconds * 1000;
    const next = nextFireTime(job, late ? at : scheduled);
    if (!(await jobs.claimFire(job.id, scheduled, next))) {
      await takeOverIfLost(job, fire);
      return;
    }
    await enqueueNext(job, next).catch((error: unknown) =>
      logger.warn('Could not queue the next fire', { jobId: job.id, error: errorText(error) }),
    );
    let mode: JobFireMode = 'schedule';
    if (late) {
      if (job.misfireStrategy === 'skip') {
        await writeSkipped(
          job,
          fire,
          'misfire-skip',
          `picked up ${at.getTime() - scheduled.getTime()} ms late`,
        );
        return;
      }
      mode = 'catch-up';
    }
    const first = await startAttempt(job, fire, mode, 0);
    if (typeof first === 'object') {
      await writeSkipped(job, fire, mode, busyMessage(first, false));
      return;
    }
    if (first === undefined) return; // another instance wrote this attempt
    await runAttempts(job, fire, mode, { logId: first, retryIndex: 0 });
  }

  /**
   * Writes the `running` row of one attempt. A serial-skip job's row carries the job's claim, unique in the
   * database: of two attempts started at once (two instances, two run-now requests) one insert wins and the
   * other answers busy. The count before it catches running rows without a claim (a job that was parallel).
   * A parallel job's row is written only while fewer than `MaxParallelRuns` of its runs are alive, the count and
   * the insert under the job row's lock, so attempts started at once cannot overshoot the cap together.
   * `undefined`: this attempt has a row already (another instance wrote it).
   */
  async function startAttempt(
    job: SysJobRow,
    fire: Fire,
    mode: JobFireMode,
    retryIndex: number,
  ): Promise<number | Busy | undefined> {
    const row = attemptRow(job, fire, mode, retryIndex, now());
    if (job.concurrencyMode !== 'serial-skip') {
      const maxParallel = options.MaxParallelRuns;
      const claimed = await jobLogs.claimParallel(row, maxParallel);
      return typeof claimed === 'object'
        ? { kind: 'parallel', running: claimed.running, maxParallel }
        : claimed;
    }
    if ((await jobLogs.runningCount(job.id, fire.id)) > 0) return { kind: 'serial' };
    const claimed = await jobLogs.claimSerial(row);
    return claimed === 'busy' ? { kind: 'serial' } : claimed;
  }

  async function writeSkipped(
    job: SysJobRow,
    fire: Fire,
    mode: JobFireMode,
    message: string,
    retryIndex = 0,
  ) {
    const at = now();
    await jobLogs.insert({
      ...attemptRow(job, fire, mode, retryIndex, at),
      endTime: at,
      runStatus: 'skipped',
      messageText: message,
    });
  }

  /** The run-log columns every attempt's row has, started at `at` on this node. */
  function attemptRow(job: SysJobRow, fire: Fire, mode: JobFireMode, retryIndex: number, at: Date) {
    return {
      jobId: job.id,
      jobName: job.name,
      fireInstanceId: fire.id,
      retryIndex,
      fireMode: mode,
      scheduledTime: new Date(fire.scheduledTime),
      startTime: at,
      nodeName,
    };
  }

  /** A fire delivered again whose row is running on another node: that node lost it; continue it here. */
  async function takeOverIfLost(job: SysJobRow, fire: Fire) {
    if (!dispatcher.redeliversLostFires) return;
    const last = (await jobLogs.ofFire(fire.id)).at(-1);
    if (last?.runStatus !== 'running' || last.nodeName === nodeName) return;
    if (!(await jobLogs.takeOver(last.id, last.nodeName, nodeName, now()))) return;
    logger.warn('Took over a run of a lost instance', { jobId: job.id, logId: last.id, from: last.nodeName });
    await runAttempts(job, fire, last.fireMode, { logId: last.id, retryIndex: last.retryIndex });
  }

  /** Runs the attempts of a fire from `from`, whose running row is written already (its first or a takeover). */
  async function runAttempts(
    job: SysJobRow,
    fire: Fire,
    mode: JobFireMode,
    from: { logId: number; retryIndex: number },
  ): Promise<void> {
    let success: boolean | null = false;
    for (let retryIndex = from.retryIndex; retryIndex <= job.retryCount; retryIndex++) {
      if (!alive()) return;
      const logId =
        retryIndex === from.retryIndex ? from.logId : await startAttempt(job, fire, mode, retryIndex);
      if (logId === undefined) return; // another instance wrote this attempt
      if (typeof logId === 'object') {
        // Another run of this serial job, or runs of this parallel job up to its cap, started while this fire
        // waited to retry: the retry gives way.
        await writeSkipped(job, fire, mode, busyMessage(logId, true), retryIndex);
        break;
      }
      const outcome = await runOne(job, fire, mode, logId, retryIndex);
      if (outcome === 'lost') return;
      if (outcome === 'success') {
        success = true;
        break;
      }
      if (outcome === 'killed') success = null;
      if (outcome === 'killed' || outcome === 'shutdown') break;
      if (retryIndex < job.retryCount && job.retryIntervalSeconds > 0)
        await pause(job.retryIntervalSeconds * 1000);
    }
    if (!alive()) return;
    const updated = await jobs.recordOutcome(job.id, { success, at: now() });
    if (
      success === false &&
      updated &&
      updated.failAlertThreshold > 0 &&
      updated.consecutiveErrors >= updated.failAlertThreshold &&
      (await jobs.setStatus(job.id, 4, [1, 3]))
    ) {
      const text = `Job ${updated.code} (${updated.name}) failed ${updated.consecutiveErrors} times in a row and was set to Panic.`;
      logger.warn(text, { jobId: job.id });
      if (updated.alertByNotice)
        await deps
          .alertAdministrators(updated, text)
          .catch((error: unknown) =>
            logger.warn('Could not alert the administrators', { jobId: job.id, error: errorText(error) }),
          );
    }
  }

  /** Waits `ms` unless the engine stops first (the retry interval: engine pacing). */
  function pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      stopping.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  }

  async function runOne(
    job: SysJobRow,
    fire: Fire,
    mode: JobFireMode,
    logId: number,
    retryIndex: number,
  ): Promise<'success' | 'failed' | 'timeout' | 'killed' | 'shutdown' | 'lost'> {
    const controller = new AbortController();
    running.set(logId, controller);
    const started = now();
    // An HTTP job without its own timeout gets the default one: a target that never answers would otherwise
    // keep a serial job running (and every later fire skipped) until someone kills the run.
    const timeoutSeconds =
      job.timeoutSeconds > 0 ? job.timeoutSeconds : job.handlerKind === 2 ? options.HttpTimeoutSeconds : 0;
    const timer =
      timeoutSeconds > 0
        ? setTimeout(() => controller.abort(new RunAbort('timeout')), timeoutSeconds * 1000)
        : undefined;
    let status: 'success' | 'failed' | 'timeout' | 'killed' | 'shutdown';
    let message: string | null = null;
    let error: string | null = null;
    try {
      const handler = deps.resolveHandler(job, compiled);
      const ctx: JobContext = {
        job,
        props: parseProps(job.propsJson),
        signal: controller.signal,
        fireMode: mode,
        scheduledTime: new Date(fire.scheduledTime),
        retryIndex,
        logId,
        nodeName,
        logger: logger.child(`Service.Jobs.${job.code}`),
      };
      const aborted = new Promise<never>((_, reject) => {
        if (controller.signal.aborted) reject(controller.signal.reason);
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
      });
      const result = await Promise.race([Promise.resolve().then(() => handler(ctx)), aborted]);
      status = 'success';
      message = typeof result === 'string' ? result : null;
    } catch (caught) {
      const reason = controller.signal.aborted ? controller.signal.reason : undefined;
      if (reason instanceof RunAbort) {
        status = reason.kind;
        error = reason.kind === 'killed' ? null : reason.message;
        message = reason.kind === 'killed' ? reason.message : null;
      } else {
        status = 'failed';
        error = runErrorText(caught);
        // The run log shows no stack; a compiled handler's developer finds it in the application log.
        if (job.handlerKind === 1)
          logger.warn('Job handler failed', { jobId: job.id, logId, error: errorText(caught) });
      }
    } finally {
      if (timer) clearTimeout(timer);
      running.delete(logId);
    }
    if (state === 'crashed') return 'lost';
    const end = now();
    const written = await jobLogs.finish(logId, nodeName, {
      runStatus: status === 'shutdown' ? 'failed' : status,
      endTime: end,
      elapsedMs: end.getTime() - started.getTime(),
      messageText: message,
      errorText: error,
    });
    return written ? status : 'lost';
  }

  async function kill(logId: number): Promise<void> {
    const row = await jobLogs.get(logId);
    if (row?.runStatus !== 'running') throw new BusinessError(JobErrorCode.JobRunNotAlive, { logId });
    const local = running.get(logId);
    // A run on another node is reached through Redis only: while it is down the request could not arrive, and
    // the missing acknowledgement would read as a run that is not alive.
    if (!local && deps.cacheHealth?.health() === 'Degraded') throw killUnreachable();
    await jobLogs.requestKill(logId);
    if (local) {
      local.abort(new RunAbort('killed'));
      return;
    }
    const requestId = randomUUID();
    const acked = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        pendingAcks.delete(requestId);
        resolve(false);
      }, options.KillAckMs);
      pendingAcks.set(requestId, () => {
        clearTimeout(timer);
        pendingAcks.delete(requestId);
        resolve(true);
      });
    });
    await cache.publish<KillRequest>(killChannel, { logId, requestId });
    if (await acked) return;
    // Redis went away while the request was under way.
    if (deps.cacheHealth?.health() === 'Degraded') throw killUnreachable();
    throw new BusinessError(JobErrorCode.JobRunNotAlive, { logId });
  }

  async function ensureSubscriptions() {
    unsubscribe.push(
      await cache.subscribe<KillRequest>(killChannel, async (msg) => {
        const controller = running.get(msg.logId);
        if (!controller || !alive()) return;
        controller.abort(new RunAbort('killed'));
        await cache.publish(ackChannel, { requestId: msg.requestId });
      }),
      await cache.subscribe<{ requestId: string }>(ackChannel, (msg) => {
        pendingAcks.get(msg.requestId)?.();
      }),
    );
  }

  return {
    get kind() {
      return dispatcher.kind;
    },
    nodeName,
    register(name, handler, opts) {
      compiled.set(name, { name, handler, description: opts?.description });
    },
    handlers: () => [...compiled.values()].sort((a, b) => a.name.localeCompare(b.name)),
    async start() {
      if (state !== 'new') return;
      state = 'started';
      if (deps.cacheHealth) {
        const off = deps.cacheHealth.onStateChange((next) => {
          if (next === 'Healthy') sharedBackAt = now().getTime();
        });
        unsubscribe.push(async () => off());
      }
      await ensureSubscriptions();
      await dispatcher.start((fire) => track(processFire(fire)));
      await scan().catch((error: unknown) => logger.warn('Job scan failed', { error: errorText(error) }));
      scanTimer = setInterval(() => {
        if (scanning) return;
        scan().catch((error: unknown) => logger.warn('Job scan failed', { error: errorText(error) }));
      }, options.ScanSeconds * 1000);
      scanTimer.unref();
      logger.info('Job engine started', { engine: dispatcher.kind, node: nodeName });
    },
    async stop(opts) {
      if (state !== 'started') return;
      const graceful = opts?.graceful ?? true;
      if (scanTimer) clearInterval(scanTimer);
      stopping.abort();
      if (!graceful) {
        state = 'crashed';
        await dispatcher.stop(false);
      } else {
        for (const controller of running.values()) controller.abort(new RunAbort('shutdown'));
        // The aborted runs write their rows before the state says stopped.
        await Promise.allSettled([...settled]);
        state = 'stopped';
        await dispatcher.stop(true);
      }
      await Promise.allSettled(unsubscribe.splice(0).map((off) => off()));
    },
    async reschedule(jobId) {
      const job = await jobs.get(jobId);
      if (job?.status !== 1) return;
      await enqueueNext(job, job.nextRunTime);
    },
    async runNow(jobId) {
      if (!alive())
        throw new BusinessError(ErrorCode.ServiceUnavailable, { reason: 'the job engine is stopping' });
      const job = await jobs.get(jobId);
      if (!job) throw new BusinessError(JobErrorCode.JobNotFound, { id: jobId });
      const fire: Fire = { id: `m-${randomUUID()}`, jobId, scheduledTime: now().getTime(), mode: 'manual' };
      // The running row is written before the answer, in the one insert that decides serial-skip (or the locked
      // count and insert that keep a parallel job within its cap): a request that follows, here or on another
      // instance, finds it.
      const logId = await startAttempt(job, fire, 'manual', 0);
      if (logId === undefined || typeof logId === 'object') {
        // At a parallel job's cap the answer says how many run and the cap.
        const cap =
          logId?.kind === 'parallel' ? { running: logId.running, maxParallel: logId.maxParallel } : {};
        throw new BusinessError(JobErrorCode.JobAlreadyRunning, { id: jobId, ...cap });
      }
      await jobs.setLastRunTime(jobId, new Date(fire.scheduledTime));
      // A manual run belongs to the instance that was asked: it runs here.
      void track(runAttempts(job, fire, 'manual', { logId, retryIndex: 0 })).catch((error: unknown) =>
        logger.error('Manual job run failed', { jobId, error: errorText(error) }),
      );
      return fire.id;
    },
    kill,
    scan,
    localRuns: () => [...running.keys()],
  };
}

/** A kill of a run on another node while Redis is down: answered 503 (50004), as other Redis-only requests are. */
const killUnreachable = () =>
  new CacheUnavailableError('the kill cannot reach the node running the run while Redis is unavailable');

function parseProps(json: string | null): unknown {
  if (!json) return undefined;
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

/** The clean-up duty of the seeded `sys-job-log-cleanup` job. */
export function logCleanupHandler(deps: {
  jobLogs: JobLogRepository;
  retentionDays: () => number;
  /** Read at each run. */
  reclaimers: () => readonly JobReclaimer[];
  now: () => Date;
}): JobHandler {
  return async (ctx) => {
    const at = deps.now();
    const cutoff = new Date(at.getTime() - deps.retentionDays() * 86_400_000);
    const parts = [
      `job log: ${await deps.jobLogs.deleteOlderThan(cutoff)} rows older than ${cutoff.toISOString()}`,
    ];
    for (const reclaimer of deps.reclaimers()) {
      if (ctx.signal.aborted) break;
      try {
        parts.push(`${reclaimer.name}: ${await reclaimer.reclaim(at)}`);
      } catch (error) {
        parts.push(`${reclaimer.name}: failed (${error instanceof Error ? error.message : String(error)})`);
      }
    }
    return parts.join('; ');
  };
}
