/**
 * The SQL console log (spec "SQL console log"; a development tool, off by default) and the slow/failed-SQL
 * warnings (on by default), fed by the data layer's `QueryObserver`.
 * - Console log: one block per statement through category `Service.Sql` (sequence number, kind, connection id,
 *   elapsed, the statement with parameters inlined and masked), only statements of at least `MinMillis`,
 *   truncated past `MaxSqlChars`; at the end of an HTTP request that ran statements, a summary line (count,
 *   total time, slowest statement's number) with a suspected-N+1 note from 20 statements. Requests are told
 *   apart with AsyncLocalStorage: `runRequest` opens the scope the statements of that request count into.
 * - Slow SQL: statements of at least `Database:SlowSqlMillis` (0 = off) as a warning of `Service.Sql.Slow`.
 * - Failed SQL: every failed statement as a warning of `Service.Sql.Failed`, with the error message.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import type { Logger } from '@svc/kernel';
import { inlineParams, redactSensitiveValues, type SqlKind, sqlKind, truncateSql } from './format.js';

/** Spec: the summary adds a suspected-N+1 note from this many statements in one request. */
export const N_PLUS_ONE_THRESHOLD = 20;

export interface SqlLogOptions {
  /** Category `Service.Sql` (the console log and the summary). */
  logger: Logger;
  /** Where slow and failed statements are reported. @default logger.child('Service.Sql.Slow' | '…Failed') */
  slowLogger?: Logger;
  failedLogger?: Logger;
  /** `Database:SqlLog:Enabled`. @default false */
  enabled?: boolean;
  /** `Database:SqlLog:MinMillis`. @default 0 */
  minMillis?: number;
  /** `Database:SqlLog:MaxSqlChars`. @default 4000 */
  maxSqlChars?: number;
  /** `Database:SqlLog:RequestSummary`. @default true */
  requestSummary?: boolean;
  /** ANSI colours in the console blocks (resolve `auto` with {@link resolveSqlColor}). @default false */
  color?: boolean;
  /** `Database:SlowSqlMillis` (0 = off). @default 1000 */
  slowMillis?: number;
  /** `Database:LogFailedSql`. @default true */
  logFailed?: boolean;
  /** Connection id: `Service` for the main database. @default 'Service' */
  connectionId?: string;
  /** @default performance.now */
  clock?: () => number;
}

/** The statements of one HTTP request. */
interface RequestScope {
  count: number;
  totalMs: number;
  slowestSeq: number;
  slowestMs: number;
}

export interface SqlLog {
  /** Pass to `openDatabase({ queryObserver })`. */
  start(sql: string, params: readonly unknown[]): (error?: unknown) => void;
  /** Runs one HTTP request's work in its own statement scope, then logs the summary line. */
  runRequest<T>(label: string, work: () => Promise<T>): Promise<T>;
  /** True when requests need a scope (console log and summary on). */
  readonly wantsRequestScope: boolean;
}

const ANSI = {
  reset: '\x1b[0m',
  dim: '\x1b[2m',
  red: '\x1b[31m',
  green: '\x1b[32m',
  yellow: '\x1b[33m',
  magenta: '\x1b[35m',
  cyan: '\x1b[36m',
};
const KIND_COLOR: Record<SqlKind, string> = {
  Query: ANSI.green,
  Insert: ANSI.cyan,
  Update: ANSI.yellow,
  Delete: ANSI.red,
  Ddl: ANSI.magenta,
  Transaction: ANSI.dim,
  Other: ANSI.dim,
};

/**
 * `Color` = `auto` means: only on a terminal and only without `NO_COLOR` (https://no-color.org).
 * @example resolveSqlColor('auto', process.stdout.isTTY, process.env)
 */
export function resolveSqlColor(
  setting: 'auto' | 'true' | 'false',
  isTty: boolean | undefined,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  if (setting === 'true') return true;
  if (setting === 'false') return false;
  return isTty === true && (env.NO_COLOR === undefined || env.NO_COLOR === '');
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

function errorMessage(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

export function createSqlLog(options: SqlLogOptions): SqlLog {
  const { logger } = options;
  const enabled = options.enabled ?? false;
  const minMillis = options.minMillis ?? 0;
  const maxSqlChars = options.maxSqlChars ?? 4000;
  const summaryOn = enabled && (options.requestSummary ?? true);
  const color = options.color ?? false;
  const slowMillis = options.slowMillis ?? 1000;
  const logFailed = options.logFailed ?? true;
  const connectionId = options.connectionId ?? 'Service';
  const clock = options.clock ?? (() => performance.now());
  const slowLogger = options.slowLogger ?? logger.child('Service.Sql.Slow');
  const failedLogger = options.failedLogger ?? logger.child('Service.Sql.Failed');
  const scopes = new AsyncLocalStorage<RequestScope>();
  let sequence = 0;

  const paint = (code: string, text: string) => (color ? `${code}${text}${ANSI.reset}` : text);
  const render = (sql: string, params: readonly unknown[]) =>
    truncateSql(inlineParams(sql, params), maxSqlChars);

  function finish(
    seq: number,
    sql: string,
    params: readonly unknown[],
    elapsed: number,
    error: unknown,
  ): void {
    const scope = scopes.getStore();
    if (scope) {
      scope.count++;
      scope.totalMs += elapsed;
      if (elapsed >= scope.slowestMs) {
        scope.slowestMs = elapsed;
        scope.slowestSeq = seq;
      }
    }
    const failed = error !== undefined;
    const slow = slowMillis > 0 && elapsed >= slowMillis;
    if (enabled && elapsed >= minMillis && logger.isEnabled('Information')) {
      const kind = sqlKind(sql);
      const time = paint(slow ? ANSI.red : ANSI.dim, ms(elapsed));
      const head = `#${seq} ${paint(KIND_COLOR[kind], kind)} [${connectionId}] ${time}${failed ? ` ${paint(ANSI.red, 'FAILED')}` : ''}`;
      logger.info(`${head}\n${render(sql, params)}`, {
        seq,
        kind,
        connection: connectionId,
        elapsedMs: round(elapsed),
      });
    }
    if (slow && slowLogger.isEnabled('Warning')) {
      slowLogger.warn(
        `Slow SQL #${seq} took ${ms(elapsed)} (threshold ${slowMillis} ms): ${render(sql, params)}`,
        {
          seq,
          connection: connectionId,
          elapsedMs: round(elapsed),
        },
      );
    }
    if (failed && logFailed && failedLogger.isEnabled('Warning')) {
      failedLogger.warn(
        `Failed SQL #${seq} after ${ms(elapsed)}: ${redactSensitiveValues(errorMessage(error), sql, params)}: ${render(sql, params)}`,
        {
          seq,
          connection: connectionId,
          elapsedMs: round(elapsed),
        },
      );
    }
  }

  return {
    wantsRequestScope: summaryOn,

    start(sql, params) {
      const seq = ++sequence;
      const started = clock();
      let done = false;
      return (error?: unknown) => {
        if (done) return;
        done = true;
        finish(seq, sql, params, clock() - started, error);
      };
    },

    async runRequest(label, work) {
      if (!summaryOn) return work();
      const scope: RequestScope = { count: 0, totalMs: 0, slowestSeq: 0, slowestMs: -1 };
      try {
        return await scopes.run(scope, work);
      } finally {
        if (scope.count > 0) {
          const note =
            scope.count >= N_PLUS_ONE_THRESHOLD
              ? ` — suspected N+1: ${scope.count} statements in one request`
              : '';
          logger.info(
            `${label}: ${scope.count} statement(s), ${ms(scope.totalMs)} in all, slowest #${scope.slowestSeq} (${ms(scope.slowestMs)})${note}`,
            { statements: scope.count, totalMs: round(scope.totalMs), slowestSeq: scope.slowestSeq },
          );
        }
      }
    },
  };
}

const round = (value: number) => Math.round(value * 10) / 10;
