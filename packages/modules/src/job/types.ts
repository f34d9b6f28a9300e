/**
 * The public shapes of the scheduled-job module: compiled handlers, reclaimers, the administrators' alert and
 * the engine interface both engines (in-process, BullMQ) implement.
 */
import type { JobFireMode, SysJobRow } from '@svc/data';
import type { Logger } from '@svc/kernel';

/** What a handler receives for one attempt. */
export interface JobContext {
  job: SysJobRow;
  /** `propsJson` parsed (undefined when empty or not JSON). */
  props: unknown;
  /** Aborted on timeout, kill or shutdown: a handler should stop soon after (the run ends either way). */
  signal: AbortSignal;
  fireMode: JobFireMode;
  scheduledTime: Date;
  retryIndex: number;
  logId: number;
  nodeName: string;
  logger: Logger;
}

/** A compiled handler: resolves (optionally with a message for the run log) or throws. */
// biome-ignore lint/suspicious/noConfusingVoidType: an async handler that returns nothing is fine
export type JobHandler = (ctx: JobContext) => Promise<string | undefined | void>;

/** A registered compiled handler. */
export interface JobHandlerEntry {
  name: string;
  description?: string | undefined;
  handler: JobHandler;
}

/** A module that frees what it left behind (abandoned upload chunks, deleted files); run by the log clean-up job. */
export interface JobReclaimer {
  name: string;
  /** Answers how many items were reclaimed. */
  reclaim(now: Date): Promise<number>;
}

/** Tells administrators about a job that went to Panic (wired to the notice publisher when notices exist). */
export type AlertAdministrators = (job: SysJobRow, text: string) => Promise<void>;

/** One fire of one job: scheduled (its id derives from job and time, so duplicates collapse) or manual. */
export interface Fire {
  id: string;
  jobId: number;
  /** Epoch milliseconds. */
  scheduledTime: number;
  mode: 'schedule' | 'manual';
}

/** The engine of one instance. */
export interface JobEngine {
  readonly kind: 'in-process' | 'bullmq';
  readonly nodeName: string;
  /** Registers (or replaces) a compiled handler. */
  register(name: string, handler: JobHandler, options?: { description?: string }): void;
  handlers(): JobHandlerEntry[];
  start(): Promise<void>;
  /**
   * Stops scheduling and running. Graceful (default): runs in flight are aborted and written as failed.
   * `graceful: false` behaves like a crash (tests): nothing more is written, runs stay `running` for another
   * instance to take over.
   */
  stop(options?: { graceful?: boolean }): Promise<void>;
  /** After a job write: makes sure the job's next fire is queued. */
  reschedule(jobId: number): Promise<void>;
  /** Runs the job once now (manual fire mode); answers the fire id. */
  runNow(jobId: number): Promise<string>;
  /** Stops a running run wherever it runs; 47007 when it is not alive. */
  kill(logId: number): Promise<void>;
  /** One pass of the scheduler loop (queues the next fire of every Ready job). */
  scan(): Promise<void>;
  /** Run-log ids running on this instance. */
  localRuns(): number[];
}
