/**
 * The job module's application service: validation and rules behind the `/api/v1/sys/job` routes. The engine
 * runs fires; this service keeps the rows right and tells the engine when a job changed. SQL jobs run any
 * statement as the application's database user, so creating, changing (to or from SQL), running and resuming one
 * is a super administrator's power (41001 for anyone else, whatever job permissions they hold). Secrets in props are
 * write-only (`secrets.ts`).
 */

import {
  isUniqueViolation,
  type JobConcurrencyMode,
  type JobHandlerKind,
  type JobLogPageQuery,
  type JobLogRepository,
  type JobMisfireStrategy,
  type JobPageQuery,
  type JobRepository,
  type JobTriggerKind,
  type NewJob,
  type Page,
  type SysJobLogRow,
  type SysJobRow,
} from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';
import { JobErrorCode } from './codes.js';
import { type HandlerPolicy, validateHandler } from './handlers.js';
import { keepStoredSecrets } from './secrets.js';
import { cronFireTimes, nextFireTime, normaliseCron, validateTrigger } from './trigger.js';
import type { JobEngine } from './types.js';

/** Code of the seeded log clean-up job and of its compiled handler. */
export const LOG_CLEANUP_JOB = 'sys-job-log-cleanup';

/** Fields of a create or update. */
export interface JobInput {
  name: string;
  handlerKind: JobHandlerKind;
  handlerName: string;
  propsJson?: string | null | undefined;
  triggerKind: JobTriggerKind;
  cronExpression?: string | null | undefined;
  intervalSeconds?: number | null | undefined;
  oneShotTime?: Date | null | undefined;
  startTime?: Date | null | undefined;
  endTime?: Date | null | undefined;
  misfireStrategy?: JobMisfireStrategy | undefined;
  concurrencyMode?: JobConcurrencyMode | undefined;
  timeoutSeconds?: number | undefined;
  retryCount?: number | undefined;
  retryIntervalSeconds?: number | undefined;
  failAlertThreshold?: number | undefined;
  alertByNotice?: boolean | undefined;
  remark?: string | null | undefined;
}

/** Who writes: the id for the audit columns, and whether a super administrator's session asks (SQL jobs). */
export interface JobActor {
  userId: number | null;
  isSuperAdmin: boolean;
}

export interface Dashboard {
  today: { success: number; failed: number };
  inFlight: { logId: number; jobId: number; jobName: string; nodeName: string; startTime: Date }[];
  statusCounts: { ready: number; paused: number; completed: number; panic: number };
  trend: { date: string; success: number; failed: number }[];
  upcoming: { jobId: number; code: string; name: string; nextRunTime: Date }[];
  nodes: { nodeName: string; lastSeen: Date | null; current: boolean }[];
}

export interface JobService {
  page(query: JobPageQuery): Promise<Page<SysJobRow>>;
  create(input: JobInput & { code: string }, actor: JobActor): Promise<number>;
  update(id: number, input: JobInput, actor: JobActor): Promise<void>;
  remove(ids: readonly number[], actor: JobActor): Promise<number>;
  setEnabled(id: number, enabled: boolean, actor: JobActor): Promise<void>;
  run(id: number, actor: JobActor): Promise<string>;
  previewCron(cron: string, count: number): { cron: string; nextFireTimes: Date[] };
  /** `sqlAllowed`: SQL jobs are on and the caller may write them (a super administrator). */
  handlers(actor: JobActor): {
    handlers: { name: string; description: string | null }[];
    sqlAllowed: boolean;
    privateHttpAllowed: boolean;
  };
  logPage(query: JobLogPageQuery): Promise<Page<SysJobLogRow>>;
  kill(logId: number): Promise<void>;
  clearLog(jobId?: number): Promise<number>;
  dashboard(): Promise<Dashboard>;
  /** Creates the seeded system jobs that are missing (at engine start; several instances may race). */
  ensureSystemJobs(): Promise<void>;
}

export interface JobServiceDeps {
  jobs: JobRepository;
  jobLogs: JobLogRepository;
  engine: JobEngine;
  policy: HandlerPolicy;
  now: () => Date;
}

const notFound = (id: number) => new BusinessError(JobErrorCode.JobNotFound, { id });
const conflict = (reason: string) => new BusinessError(JobErrorCode.JobStatusConflict, { reason });
const DAY = 86_400_000;

export function createJobService(deps: JobServiceDeps): JobService {
  const { jobs, jobLogs, engine, now } = deps;
  const compiled = () => new Map(engine.handlers().map((h) => [h.name, h]));

  /**
   * A SQL job's write, run or resume: 47008 while SQL jobs are off (`switchedOn`: unless the write only leaves SQL),
   * 41001 unless a super administrator asks (SQL jobs are theirs alone, whatever job permissions others hold).
   */
  function assertSqlPower(actor: JobActor, switchedOn = true) {
    if (switchedOn && !deps.policy.allowSqlJobs()) throw new BusinessError(JobErrorCode.JobSqlDisabled);
    if (!actor.isSuperAdmin) throw new BusinessError(ErrorCode.NoPermission, { reason: 'sql-job' });
  }

  async function normalise(input: JobInput) {
    const trigger = validateTrigger({
      triggerKind: input.triggerKind,
      cronExpression: input.cronExpression ?? null,
      intervalSeconds: input.intervalSeconds ?? null,
      oneShotTime: input.oneShotTime ?? null,
      startTime: input.startTime ?? null,
      endTime: input.endTime ?? null,
    });
    const handler = {
      handlerKind: input.handlerKind,
      handlerName: input.handlerKind === 1 ? input.handlerName : input.handlerKind === 2 ? 'http' : 'sql',
      propsJson: input.propsJson ?? null,
    };
    await validateHandler(handler, compiled(), deps.policy);
    const next = nextFireTime(trigger, now());
    if (!next)
      throw new BusinessError(JobErrorCode.JobTriggerInvalid, { reason: 'the trigger has no future fire' });
    return {
      ...trigger,
      ...handler,
      name: input.name,
      misfireStrategy: input.misfireStrategy ?? 'skip',
      concurrencyMode: input.concurrencyMode ?? 'serial-skip',
      timeoutSeconds: input.timeoutSeconds ?? 0,
      retryCount: input.retryCount ?? 0,
      retryIntervalSeconds: input.retryIntervalSeconds ?? 0,
      failAlertThreshold: input.failAlertThreshold ?? 0,
      alertByNotice: input.alertByNotice ?? false,
      remark: input.remark ?? null,
      next,
    };
  }

  async function mustGet(id: number) {
    const job = await jobs.get(id);
    if (!job) throw notFound(id);
    return job;
  }

  return {
    page: (query) => jobs.page(query),

    async create(input, actor) {
      if (input.handlerKind === 3) assertSqlPower(actor);
      const { next, ...fields } = await normalise({
        ...input,
        propsJson: keepStoredSecrets(input.handlerKind, input.propsJson, null),
      });
      const row: NewJob = {
        ...fields,
        code: input.code,
        status: 1,
        nextRunTime: next,
        isSystem: false,
        createUserId: actor.userId,
        createTime: now(),
      };
      if (await jobs.getByCode(input.code))
        throw new BusinessError(JobErrorCode.JobCodeExists, { code: input.code });
      let id: number;
      try {
        id = await jobs.create(row);
      } catch (error) {
        if (isUniqueViolation(error))
          throw new BusinessError(JobErrorCode.JobCodeExists, { code: input.code });
        throw error;
      }
      await engine.reschedule(id);
      return id;
    },

    async update(id, input, actor) {
      const job = await mustGet(id);
      if (job.isSystem && (input.handlerKind !== job.handlerKind || input.handlerName !== job.handlerName))
        throw conflict('the handler of a system job cannot change');
      // Also a SQL job turned into another kind: its statement was a super administrator's to keep or drop.
      if (input.handlerKind === 3 || job.handlerKind === 3) assertSqlPower(actor, input.handlerKind === 3);
      const { next, ...fields } = await normalise({
        ...input,
        propsJson: keepStoredSecrets(input.handlerKind, input.propsJson, job.propsJson),
      });
      // A Completed job whose trigger has a future fire again is Ready again; Paused and Panic stay as they are.
      const status = job.status === 3 ? 1 : job.status;
      await jobs.update(id, { ...fields, status, nextRunTime: next }, { userId: actor.userId, now: now() });
      await engine.reschedule(id);
    },

    async remove(ids, actor) {
      const unique = [...new Set(ids)];
      for (const id of unique) {
        const job = await jobs.get(id);
        if (!job && unique.length === 1) throw notFound(id);
        // Any system job refuses the whole batch.
        if (job?.isSystem) throw conflict(`${job.code} is a system job and cannot be deleted`);
      }
      return (await jobs.softDelete(unique, { userId: actor.userId, now: now() })).length;
    },

    async setEnabled(id, enabled, actor) {
      const job = await mustGet(id);
      // A resumed SQL job runs its statement again, as a run now does; pausing one stops it and stays open.
      if (enabled && job.handlerKind === 3) assertSqlPower(actor);
      const audit = { userId: actor.userId, now: now() };
      if (!enabled) {
        if (job.status === 2) return;
        if (!(await jobs.setStatus(id, 2, [1, 4], audit)))
          throw conflict('only a Ready or Panic job can be paused');
        return;
      }
      if (job.status === 1) return;
      if (job.status === 3) throw conflict('a Completed job has no fire left; change its trigger');
      const next = nextFireTime(job, now());
      if (!next) throw conflict('the trigger has no future fire');
      // A resumed job starts afresh: its consecutive failures are forgiven.
      await jobs.update(id, { nextRunTime: next, consecutiveErrors: 0 }, audit);
      if (!(await jobs.setStatus(id, 1, [2, 4], audit))) throw conflict('the job changed meanwhile');
      await engine.reschedule(id);
    },

    async run(id, actor) {
      const job = await mustGet(id);
      if (job.handlerKind === 3) assertSqlPower(actor);
      if (job.handlerKind === 1 && !compiled().has(job.handlerName))
        throw new BusinessError(JobErrorCode.JobHandlerNotFound, { handlerName: job.handlerName });
      return engine.runNow(id);
    },

    previewCron(cron, count) {
      const normalised = normaliseCron(cron);
      const nextFireTimes = cronFireTimes(normalised, now(), count);
      // What saving the job would refuse, the preview refuses too (`0 0 0 30 2 ?` never fires).
      if (nextFireTimes.length === 0)
        throw new BusinessError(JobErrorCode.JobTriggerInvalid, { reason: 'the trigger has no future fire' });
      return { cron: normalised, nextFireTimes };
    },

    handlers(actor) {
      return {
        handlers: engine.handlers().map((h) => ({ name: h.name, description: h.description ?? null })),
        sqlAllowed: deps.policy.allowSqlJobs() && actor.isSuperAdmin,
        privateHttpAllowed: deps.policy.allowPrivateHttpTargets(),
      };
    },

    logPage: (query) => jobLogs.page(query),
    kill: (logId) => engine.kill(logId),
    clearLog: (jobId) => jobLogs.clear(jobId),

    async dashboard() {
      const at = now();
      const today = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
      const failedKinds = ['failed', 'timeout', 'killed'] as const;
      const trend: Dashboard['trend'] = [];
      for (let i = 13; i >= 0; i--) {
        const from = new Date(today.getTime() - i * DAY);
        const counts = await jobLogs.statusCountsBetween(from, new Date(from.getTime() + DAY), [
          'success',
          ...failedKinds,
        ]);
        trend.push({
          date: from.toISOString().slice(0, 10),
          success: counts.success ?? 0,
          failed: failedKinds.reduce((sum, k) => sum + (counts[k] ?? 0), 0),
        });
      }
      const status = await jobs.statusCounts();
      const nodes = await jobLogs.nodesSince(new Date(at.getTime() - DAY));
      const nodeRows: Dashboard['nodes'] = nodes.map((n) => ({
        ...n,
        current: n.nodeName === engine.nodeName,
      }));
      if (!nodeRows.some((n) => n.current))
        nodeRows.unshift({ nodeName: engine.nodeName, lastSeen: null, current: true });
      return {
        today: trend.at(-1)
          ? { success: trend.at(-1)?.success ?? 0, failed: trend.at(-1)?.failed ?? 0 }
          : { success: 0, failed: 0 },
        inFlight: (await jobLogs.running()).map((r) => ({
          logId: r.id,
          jobId: r.jobId,
          jobName: r.jobName,
          nodeName: r.nodeName,
          startTime: r.startTime,
        })),
        statusCounts: { ready: status[1], paused: status[2], completed: status[3], panic: status[4] },
        trend,
        upcoming: (await jobs.upcoming(10)).flatMap((j) =>
          j.nextRunTime ? [{ jobId: j.id, code: j.code, name: j.name, nextRunTime: j.nextRunTime }] : [],
        ),
        nodes: nodeRows,
      };
    },

    async ensureSystemJobs() {
      if (await jobs.getByCode(LOG_CLEANUP_JOB)) return;
      const trigger = {
        triggerKind: 1 as const,
        cronExpression: normaliseCron('0 30 3 * * ?'),
        intervalSeconds: null,
        oneShotTime: null,
        startTime: null,
        endTime: null,
      };
      try {
        await jobs.create({
          ...trigger,
          code: LOG_CLEANUP_JOB,
          name: 'Log clean-up',
          handlerKind: 1,
          handlerName: LOG_CLEANUP_JOB,
          propsJson: null,
          misfireStrategy: 'fire-once',
          concurrencyMode: 'serial-skip',
          status: 1,
          nextRunTime: nextFireTime(trigger, now()),
          timeoutSeconds: 3600,
          retryCount: 0,
          retryIntervalSeconds: 0,
          failAlertThreshold: 3,
          alertByNotice: true,
          isSystem: true,
          remark: 'Deletes old job-log rows and reclaims what other modules leave behind.',
          createTime: now(),
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
    },
  };
}
