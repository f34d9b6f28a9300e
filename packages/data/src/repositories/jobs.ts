/**
 * `sys_job` and `sys_job_log`: scheduled jobs and their run log (module `Job`). Jobs are soft-deleted and their
 * code is unique among live rows. Claiming a fire is a conditional update of `next_run_time` (only one instance
 * moves it on), and a run-log row is unique by fire and retry index, so a fire that reaches two instances writes
 * one row. A running attempt of a serial-skip job holds the job's claim (`serial_claim`, unique), so "is another
 * run of it running?" and "this one runs" are one insert on every dialect. A running attempt of a parallel job is
 * written under a lock on the job's row (`DialectAdapter.lockRow`), after counting the job's running rows (index
 * `sys_job_log_job_status_idx`, so the count under the lock reads the job's running rows, not its whole log), so
 * the cap on its live runs holds across instances too.
 *
 * Lock order: a transaction that touches both tables locks `sys_job` before `sys_job_log` (claimParallel locks the
 * job row first, then counts and inserts log rows). Keep it in any new one: e.g. a run's `finish` and its
 * `recordOutcome` put in one transaction must update the job row first, or it risks a deadlock with a claim of the
 * same job (which holds the job row and then reads the log rows). Today claimParallel is the only transaction that
 * touches both.
 */
import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { QueryDb, StatementOptions } from '../dialect.js';
import { isUniqueViolation } from '../errors.js';
import { type Page, type PageQuery, paginate } from '../paging.js';
import type {
  JobConcurrencyMode,
  JobFireMode,
  JobHandlerKind,
  JobMisfireStrategy,
  JobRunStatus,
  JobStatus,
  JobTriggerKind,
  SysJobLogRow,
  SysJobRow,
} from '../rows.js';
import { truncate } from '../text.js';
import type { RepositoryContext } from './context.js';
import { containsIgnoreCase } from './filters.js';
import { readInChunks, writeInChunks } from './id-lists.js';

/** Longest stored message and error text (8 KB). */
export const JOB_LOG_TEXT_MAX = 8192;

/** Fields a job is created with (counters start at 0). */
export interface NewJob {
  code: string;
  name: string;
  handlerKind: JobHandlerKind;
  handlerName: string;
  propsJson: string | null;
  triggerKind: JobTriggerKind;
  cronExpression: string | null;
  intervalSeconds: number | null;
  oneShotTime: Date | null;
  startTime: Date | null;
  endTime: Date | null;
  misfireStrategy: JobMisfireStrategy;
  concurrencyMode: JobConcurrencyMode;
  status: JobStatus;
  nextRunTime: Date | null;
  timeoutSeconds: number;
  retryCount: number;
  retryIntervalSeconds: number;
  failAlertThreshold: number;
  alertByNotice: boolean;
  isSystem: boolean;
  remark: string | null;
  createUserId?: number | null;
  createTime?: Date;
}

/** Changeable fields of a job (not its code nor its system flag). */
export type JobPatch = Partial<Omit<NewJob, 'code' | 'isSystem' | 'createUserId' | 'createTime'>> & {
  consecutiveErrors?: number;
};

export interface JobPageQuery extends PageQuery {
  name?: string | undefined;
  status?: JobStatus | undefined;
  handlerKind?: JobHandlerKind | undefined;
}

export interface JobAudit {
  userId?: number | null;
  now?: Date;
}

/** What one finished attempt does to the job's counters. */
export interface JobOutcome {
  /** null: neither (a killed run counts as a run, not as a failure). */
  success: boolean | null;
  at: Date;
}

export interface JobRepository {
  page(query: JobPageQuery): Promise<Page<SysJobRow>>;
  get(id: number): Promise<SysJobRow | undefined>;
  getByCode(code: string): Promise<SysJobRow | undefined>;
  create(row: NewJob): Promise<number>;
  update(id: number, patch: JobPatch, audit?: JobAudit): Promise<boolean>;
  /** Soft-deletes the live, non-system jobs among `ids`; answers the ids deleted. */
  softDelete(ids: readonly number[], audit?: JobAudit): Promise<number[]>;
  /**
   * Hard-deletes a soft-deleted job with its run-log rows but the running ones (they outlive the purge, as
   * `claimParallel` says), in one transaction, the job row first (the lock order of the file header); false when
   * it was not in the bin.
   */
  purge(id: number): Promise<boolean>;
  /** Live jobs with the given status. */
  listByStatus(status: JobStatus): Promise<SysJobRow[]>;
  /**
   * Claims the fire at `scheduled`: moves `next_run_time` from `scheduled` to `next` (null when the trigger is
   * exhausted, then the job becomes Completed) only while the job is live, Ready and still due then. True for
   * the one caller that moved it.
   */
  claimFire(id: number, scheduled: Date, next: Date | null): Promise<boolean>;
  /** Sets the next fire time of a live job (null: none). */
  setNextRunTime(id: number, next: Date | null): Promise<void>;
  /** Records the start of a run outside the schedule (run now): the schedule's next fire is left alone. */
  setLastRunTime(id: number, at: Date): Promise<void>;
  /** Counts a finished attempt's result atomically and answers the row afterwards. */
  recordOutcome(id: number, outcome: JobOutcome): Promise<SysJobRow | undefined>;
  /** Sets the status when the job is live and (optionally) in one of `from`; true when changed. */
  setStatus(id: number, status: JobStatus, from?: readonly JobStatus[], audit?: JobAudit): Promise<boolean>;
  /** Live jobs per status. */
  statusCounts(): Promise<Record<JobStatus, number>>;
  /** Ready jobs with a next fire time, soonest first. */
  upcoming(limit: number): Promise<SysJobRow[]>;
  /**
   * Runs the one statement of a SQL job (only when the service allows SQL jobs); answers the affected rows.
   * Text holding several statements is refused; `timeoutMs` stops the statement on the server where the dialect
   * can (see `DialectAdapter.executeStatement`).
   */
  executeSql(statement: string, options?: StatementOptions): Promise<number>;
}

/** One run-log row to write when an attempt starts (or is skipped). */
export interface NewJobLog {
  jobId: number;
  jobName: string;
  fireInstanceId: string;
  retryIndex: number;
  fireMode: JobFireMode;
  scheduledTime: Date;
  startTime: Date;
  endTime?: Date | null;
  runStatus: JobRunStatus;
  elapsedMs?: number;
  nodeName: string;
  messageText?: string | null;
  errorText?: string | null;
}

/** How an attempt ended. */
export interface JobLogFinish {
  runStatus: Exclude<JobRunStatus, 'running'>;
  endTime: Date;
  elapsedMs: number;
  messageText?: string | null;
  errorText?: string | null;
}

export interface JobLogPageQuery extends PageQuery {
  jobId?: number | undefined;
  jobName?: string | undefined;
  runStatus?: JobRunStatus | undefined;
  fireMode?: JobFireMode | undefined;
}

export interface JobLogRepository {
  /** Writes the row; `undefined` when this fire and retry index has a row already (another instance wrote it). */
  insert(row: NewJobLog): Promise<number | undefined>;
  /**
   * Writes the `running` row of an attempt of a serial-skip job together with the job's claim: one insert, which
   * the unique claim lets through for one run of the job at a time, across instances. `busy` when another run
   * holds the claim; `undefined` when this fire and retry index has a row already.
   */
  claimSerial(row: Omit<NewJobLog, 'runStatus' | 'endTime'>): Promise<number | 'busy' | undefined>;
  /**
   * Writes the `running` row of an attempt of a parallel job while fewer than `max` rows of the job (other than
   * this fire's) are running: the count and the insert happen in one transaction holding the job row's write
   * lock, so two attempts started at once, on one instance or several, cannot both pass at `max - 1`. `{running}`
   * (the count found, at least `max`) when the job is at its cap; `undefined` when this fire and retry index has
   * a row already.
   */
  claimParallel(
    row: Omit<NewJobLog, 'runStatus' | 'endTime'>,
    max: number,
  ): Promise<number | { running: number } | undefined>;
  get(id: number): Promise<SysJobLogRow | undefined>;
  /** Rows of one fire, by retry index. */
  ofFire(fireInstanceId: string): Promise<SysJobLogRow[]>;
  /**
   * Ends a running row written by `nodeName` (and frees its serial claim); false when it is no longer running
   * there (taken over, killed).
   */
  finish(id: number, nodeName: string, result: JobLogFinish): Promise<boolean>;
  /** Moves a running row to `nodeName` (a takeover after its node died); true for the one caller that moved it. */
  takeOver(id: number, fromNode: string, nodeName: string, now: Date): Promise<boolean>;
  /** Flags a running row as asked to stop; false when it is not running. */
  requestKill(id: number): Promise<boolean>;
  page(query: JobLogPageQuery): Promise<Page<SysJobLogRow>>;
  /** Running rows of one job other than those of `exceptFire`. */
  runningCount(jobId: number, exceptFire?: string): Promise<number>;
  /** Every running row (dashboard "in flight"). */
  running(): Promise<SysJobLogRow[]>;
  /** Deletes every row that is not running (of one job when given); answers how many. */
  clear(jobId?: number): Promise<number>;
  /** Deletes rows (not running) that started before `cutoff`; answers how many. */
  deleteOlderThan(cutoff: Date): Promise<number>;
  /** Row counts per run status of rows that started in [from, to). */
  statusCountsBetween(
    from: Date,
    to: Date,
    statuses?: readonly JobRunStatus[],
  ): Promise<Partial<Record<JobRunStatus, number>>>;
  /** Nodes that wrote rows since `since` (among the newest `limit` rows), with their latest start time. */
  nodesSince(since: Date, limit?: number): Promise<{ nodeName: string; lastSeen: Date }[]>;
}

const RUN_STATUSES: readonly JobRunStatus[] = [
  'running',
  'success',
  'failed',
  'timeout',
  'killed',
  'skipped',
];

/** Rolls back the savepoint of an attempt whose row exists already (PostgreSQL releases none after an error). */
class AttemptExists extends Error {
  override name = 'AttemptExists';
}

const clip = (text: string | null | undefined) => (text == null ? null : truncate(text, JOB_LOG_TEXT_MAX));

export function createJobRepository({ db, adapter, tables }: RepositoryContext): JobRepository {
  const t = tables.sysJob;
  const live = eq(t.isDelete, false);
  const stamp = (audit?: JobAudit) => ({
    updateTime: audit?.now ?? new Date(),
    updateUserId: audit?.userId ?? null,
  });
  const one = async (where: SQL | undefined) => {
    const [row] = await db.select().from(t).where(where);
    return row;
  };
  return {
    page(query) {
      const where = and(
        live,
        containsIgnoreCase(t.name, query.name),
        query.status ? eq(t.status, query.status) : undefined,
        query.handlerKind ? eq(t.handlerKind, query.handlerKind) : undefined,
      );
      return paginate({ db, adapter }, { table: t, query, where, defaultOrder: [asc(t.id)] });
    },
    get: (id) => one(and(eq(t.id, id), live)),
    getByCode: (code) => one(and(eq(t.code, code), live)),
    create(row) {
      return adapter.insertReturningId(db, t, { ...row, createTime: row.createTime ?? new Date() });
    },
    async update(id, patch, audit) {
      const result = await db
        .update(t)
        .set({ ...patch, ...stamp(audit) })
        .where(and(eq(t.id, id), live));
      return adapter.affectedRows(result) > 0;
    },
    purge(id) {
      const logs = tables.sysJobLog;
      return adapter.transaction(db, async (tx) => {
        const result = await tx.delete(t).where(and(eq(t.id, id), eq(t.isDelete, true)));
        if (adapter.affectedRows(result) === 0) return false;
        await tx.delete(logs).where(and(eq(logs.jobId, id), ne(logs.runStatus, 'running')));
        return true;
      });
    },
    async softDelete(ids, audit) {
      if (ids.length === 0) return [];
      return adapter.transaction(db, async (tx) => {
        const rows = await readInChunks(ids, (chunk) =>
          tx
            .select({ id: t.id })
            .from(t)
            .where(and(inArray(t.id, chunk), live, eq(t.isSystem, false))),
        );
        const found = rows.map((r) => r.id);
        await writeInChunks(tx, adapter, found, (q, chunk) =>
          q
            .update(t)
            .set({ isDelete: true, ...stamp(audit) })
            .where(inArray(t.id, chunk)),
        );
        return found;
      });
    },
    async listByStatus(status) {
      return await db
        .select()
        .from(t)
        .where(and(live, eq(t.status, status)))
        .orderBy(asc(t.id));
    },
    async claimFire(id, scheduled, next) {
      const result = await db
        .update(t)
        .set({
          nextRunTime: next,
          lastRunTime: scheduled,
          ...(next === null ? { status: 3 as JobStatus } : {}),
        })
        .where(and(eq(t.id, id), live, eq(t.status, 1), eq(t.nextRunTime, scheduled)));
      return adapter.affectedRows(result) > 0;
    },
    async setLastRunTime(id, at) {
      await db
        .update(t)
        .set({ lastRunTime: at })
        .where(and(eq(t.id, id), live));
    },
    async setNextRunTime(id, next) {
      await db
        .update(t)
        .set({ nextRunTime: next })
        .where(and(eq(t.id, id), live));
    },
    async recordOutcome(id, outcome) {
      await db
        .update(t)
        .set(
          outcome.success === null
            ? { numberOfRuns: sql`${t.numberOfRuns} + 1` }
            : outcome.success
              ? { numberOfRuns: sql`${t.numberOfRuns} + 1`, consecutiveErrors: 0 }
              : {
                  numberOfRuns: sql`${t.numberOfRuns} + 1`,
                  numberOfErrors: sql`${t.numberOfErrors} + 1`,
                  consecutiveErrors: sql`${t.consecutiveErrors} + 1`,
                },
        )
        .where(eq(t.id, id));
      return one(eq(t.id, id));
    },
    async setStatus(id, status, from, audit) {
      const result = await db
        .update(t)
        .set({ status, ...stamp(audit) })
        .where(and(eq(t.id, id), live, from ? inArray(t.status, [...from]) : undefined));
      return adapter.affectedRows(result) > 0;
    },
    async statusCounts() {
      // The query surface has no GROUP BY; four indexed counts over a small table.
      const out: Record<JobStatus, number> = { 1: 0, 2: 0, 3: 0, 4: 0 };
      for (const status of [1, 2, 3, 4] as const) {
        const [row] = await db
          .select({ n: count() })
          .from(t)
          .where(and(live, eq(t.status, status)));
        out[status] = Number(row?.n ?? 0);
      }
      return out;
    },
    upcoming(limit) {
      return adapter.page(
        db
          .select()
          .from(t)
          .where(and(live, eq(t.status, 1), isNotNull(t.nextRunTime)))
          .orderBy(asc(t.nextRunTime), asc(t.id)),
        0,
        limit,
      );
    },
    executeSql: (statement, options) => adapter.executeStatement(db, statement, options),
  };
}

export function createJobLogRepository({ db, adapter, tables }: RepositoryContext): JobLogRepository {
  const t = tables.sysJobLog;
  const job = tables.sysJob;
  const running = eq(t.runStatus, 'running');
  const runningOf = async (on: QueryDb, jobId: number, exceptFire?: string) => {
    const [row] = await on
      .select({ n: count() })
      .from(t)
      .where(and(eq(t.jobId, jobId), running, exceptFire ? ne(t.fireInstanceId, exceptFire) : undefined));
    return Number(row?.n ?? 0);
  };
  /** Inserts a row on `on`; `undefined` on a unique violation (this attempt's row, or the serial claim, exists). */
  const write = async (row: NewJobLog, serialClaim: number | null, on: QueryDb = db) => {
    try {
      return await adapter.insertReturningId(on, t, {
        jobId: row.jobId,
        jobName: truncate(row.jobName, 128),
        fireInstanceId: row.fireInstanceId,
        retryIndex: row.retryIndex,
        fireMode: row.fireMode,
        scheduledTime: row.scheduledTime,
        startTime: row.startTime,
        endTime: row.endTime ?? null,
        runStatus: row.runStatus,
        elapsedMs: row.elapsedMs ?? 0,
        nodeName: truncate(row.nodeName, 128),
        killRequested: false,
        messageText: clip(row.messageText),
        errorText: clip(row.errorText),
        serialClaim,
      });
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
  };
  return {
    insert: (row) => write(row, null),
    async claimSerial(row) {
      const id = await write({ ...row, runStatus: 'running' }, row.jobId);
      if (id !== undefined) return id;
      // Which unique index refused it: this attempt's own row (another instance wrote it), or the claim.
      const [attempt] = await db
        .select({ id: t.id })
        .from(t)
        .where(and(eq(t.fireInstanceId, row.fireInstanceId), eq(t.retryIndex, row.retryIndex)));
      return attempt ? undefined : 'busy';
    },
    claimParallel(row, max) {
      return adapter.transaction(db, async (tx) => {
        // A write lock on the job's row, taken by a locking read (no row version written): every claim of the job
        // queues here until the one before it commits (SQLite: BEGIN IMMEDIATE holds the file's write lock already).
        // The count then reads what that claim committed: PostgreSQL reads committed rows per statement, and InnoDB
        // takes its repeatable-read snapshot at the first plain read, which is after the lock. Untested on SQL
        // Server (read committed there too, by default, but no test server here). A job purged from the recycle bin
        // meanwhile has no row to lock (`false`): its attempt is written all the same, as its running rows outlive
        // the purge too.
        await adapter.lockRow(tx, job, row.jobId);
        const found = await runningOf(tx, row.jobId, row.fireInstanceId);
        if (found >= max) return { running: found };
        // In a savepoint: on PostgreSQL a unique violation (another instance wrote this attempt) would otherwise
        // abort the whole transaction.
        try {
          return await adapter.transaction(tx, (sp) =>
            write({ ...row, runStatus: 'running' }, null, sp).then((id) => {
              if (id === undefined) throw new AttemptExists();
              return id;
            }),
          );
        } catch (error) {
          if (error instanceof AttemptExists) return undefined;
          throw error;
        }
      });
    },
    async get(id) {
      const [row] = await db.select().from(t).where(eq(t.id, id));
      return row;
    },
    async ofFire(fireInstanceId) {
      return await db.select().from(t).where(eq(t.fireInstanceId, fireInstanceId)).orderBy(asc(t.retryIndex));
    },
    async finish(id, nodeName, result) {
      const done = await db
        .update(t)
        .set({
          runStatus: result.runStatus,
          endTime: result.endTime,
          elapsedMs: Math.min(Math.max(0, Math.round(result.elapsedMs)), 2_147_483_647),
          messageText: clip(result.messageText),
          errorText: clip(result.errorText),
          serialClaim: null,
        })
        .where(and(eq(t.id, id), running, eq(t.nodeName, nodeName)));
      return adapter.affectedRows(done) > 0;
    },
    async takeOver(id, fromNode, nodeName, now) {
      const done = await db
        .update(t)
        .set({ nodeName, startTime: now, messageText: `taken over from ${truncate(fromNode, 100)}` })
        .where(and(eq(t.id, id), running, eq(t.nodeName, fromNode)));
      return adapter.affectedRows(done) > 0;
    },
    async requestKill(id) {
      const done = await db
        .update(t)
        .set({ killRequested: true })
        .where(and(eq(t.id, id), running));
      return adapter.affectedRows(done) > 0;
    },
    page(query) {
      const where = and(
        query.jobId ? eq(t.jobId, query.jobId) : undefined,
        containsIgnoreCase(t.jobName, query.jobName),
        query.runStatus ? eq(t.runStatus, query.runStatus) : undefined,
        query.fireMode ? eq(t.fireMode, query.fireMode) : undefined,
      );
      return paginate({ db, adapter }, { table: t, query, where, defaultOrder: [desc(t.id)] });
    },
    runningCount: (jobId, exceptFire) => runningOf(db, jobId, exceptFire),
    async running() {
      return await db.select().from(t).where(running).orderBy(asc(t.id));
    },
    async clear(jobId) {
      const result = await db
        .delete(t)
        .where(and(ne(t.runStatus, 'running'), jobId ? eq(t.jobId, jobId) : undefined));
      return adapter.affectedRows(result);
    },
    async deleteOlderThan(cutoff) {
      const result = await db.delete(t).where(and(ne(t.runStatus, 'running'), lt(t.startTime, cutoff)));
      return adapter.affectedRows(result);
    },
    async statusCountsBetween(from, to, statuses = RUN_STATUSES) {
      const out: Partial<Record<JobRunStatus, number>> = {};
      for (const status of statuses) {
        const [row] = await db
          .select({ n: count() })
          .from(t)
          .where(and(gte(t.startTime, from), lt(t.startTime, to), eq(t.runStatus, status)));
        out[status] = Number(row?.n ?? 0);
      }
      return out;
    },
    async nodesSince(since, limit = 1000) {
      // Newest rows first; the first row seen of each node is its latest.
      const rows = await adapter.page(
        db
          .select({ nodeName: t.nodeName, startTime: t.startTime })
          .from(t)
          .where(gte(t.startTime, since))
          .orderBy(desc(t.startTime)),
        0,
        limit,
      );
      const seen = new Map<string, Date>();
      for (const r of rows) if (!seen.has(r.nodeName)) seen.set(r.nodeName, r.startTime);
      return [...seen].map(([nodeName, lastSeen]) => ({ nodeName, lastSeen }));
    },
  };
}
