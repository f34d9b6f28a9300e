/**
 * Start-up failures of the data layer. Both carry the dialect and a target description without secrets, so the
 * host can print one clear line instead of a driver stack.
 */
import type { DbType } from '@svc/kernel';

/** The connection string cannot be understood for the configured dialect. */
export class InvalidConnectionStringError extends Error {
  override readonly name = 'InvalidConnectionStringError';
  readonly dbType: DbType;

  constructor(dbType: DbType, problem: string) {
    super(`Invalid ${dbType} connection string (Service:Database:ConnectionString): ${problem}`);
    this.dbType = dbType;
  }
}

/** The database could not be reached or refused the connection. The message never contains the password. */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
  readonly dbType: DbType;
  /** Host, port and database (or the SQLite file) that was tried. */
  readonly target: string;

  constructor(dbType: DbType, target: string, reason: string, options?: { cause?: unknown }) {
    super(`Cannot open the ${dbType} database at ${target}: ${reason}`, options);
    this.dbType = dbType;
    this.target = target;
  }
}

/**
 * A statement outside a transaction waited its whole acquire timeout for a transaction of this process on the same
 * SQLite file (sqlite/gate.ts): a lock wait that ran out, answered 503 with 50003 like the server dialects' ones.
 * Also what a transaction's callback gets that runs a statement through the outer handle instead of its own.
 */
export class TransactionWaitTimeoutError extends Error {
  override readonly name = 'TransactionWaitTimeoutError';
  readonly code = 'SVC_TRANSACTION_WAIT_TIMEOUT';

  constructor(target: string, timeoutMs: number) {
    super(
      `A statement waited ${timeoutMs} ms for a transaction on the SQLite database ${target} to end (inside a transaction, use the handle its callback was given)`,
    );
  }
}

/** The driver's message for `error`, with every occurrence of `secret` masked. */
export function describeCause(error: unknown, secret: string | undefined): string {
  const parts: string[] = [];
  let current: unknown = error;
  // AggregateError (e.g. ECONNREFUSED on both IPv4 and IPv6) and DrizzleQueryError hide the useful text inside.
  for (let depth = 0; current !== undefined && current !== null && depth < 4; depth++) {
    if (current instanceof AggregateError && current.errors.length > 0) current = current.errors[0];
    const text = current instanceof Error ? current.message || current.name : String(current);
    const code = (current as { code?: unknown }).code;
    // drizzle wraps driver errors as "Failed query: <sql>": the driver's own message below it says more.
    const wrapper =
      text.startsWith('Failed query:') && current instanceof Error && current.cause !== undefined;
    if (text && !wrapper && !parts.includes(text)) {
      parts.push(typeof code === 'string' && !text.includes(code) ? `${code} ${text}` : text);
    }
    current = current instanceof Error ? current.cause : undefined;
  }
  const message = parts.join(': ') || 'unknown error';
  return secret ? message.split(secret).join('***') : message;
}

/**
 * Driver error codes that mean "the database cannot be reached or did not answer in time", not "the statement
 * is wrong": socket failures, the drivers' own connection and timeout codes, PostgreSQL's connection and
 * shutdown SQLSTATEs (class 08, 57P0x) and statement-timeout cancel (57014), MySQL/MariaDB server shutdown and
 * statement timeouts, and SQLite's busy timeout.
 */
const UNAVAILABLE_CODES = new Set<string>([
  // Node sockets and DNS (every server driver).
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // postgres (postgres-js)
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  '57014',
  '57P01',
  '57P02',
  '57P03',
  // mysql2
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_SERVER_SHUTDOWN',
  'ER_CON_COUNT_ERROR',
  'ER_STATEMENT_TIMEOUT',
  'ER_QUERY_TIMEOUT',
  // mssql (tedious)
  'ETIMEOUT',
  'ESOCKET',
  'ECONNCLOSED',
  // better-sqlite3: the busy timeout ran out
  'SQLITE_BUSY',
]);

/**
 * MySQL/MariaDB server errors mysql2 gives no code name: 1969 MariaDB max_statement_time exceeded, 3024
 * MySQL max_execution_time exceeded, 1317 query interrupted (the server cancelled it).
 */
const UNAVAILABLE_MYSQL_ERRNOS = new Set<number>([1969, 3024, 1317]);

/**
 * Whether `error` (or anything in its cause chain) says the database is unreachable or timed out, so the HTTP
 * layer answers 503 with 50003 and `Retry-After` instead of recording a 500. Recognised once, here.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current !== undefined && current !== null && depth < 6; depth++) {
    if (current instanceof DatabaseUnavailableError) return true;
    if (current instanceof AggregateError) return current.errors.some(isDatabaseUnavailable);
    const { code, errno } = current as { code?: unknown; errno?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)))
      return true;
    if (typeof errno === 'number' && UNAVAILABLE_MYSQL_ERRNOS.has(errno)) return true;
    current = current instanceof Error ? current.cause : undefined;
  }
  return false;
}

/**
 * Driver answers that the database rolled the whole transaction back to break a deadlock or to keep transactions
 * serializable: PostgreSQL 40P01 (deadlock_detected) and 40001 (serialization_failure); MySQL/MariaDB 1213
 * `ER_LOCK_DEADLOCK` (mysql2 gives it SQLSTATE 40001 too) and MariaDB's 1020 `ER_CHECKREAD` (a write-write conflict
 * under `innodb_snapshot_isolation`, rolled back like a deadlock since MDEV-35235); SQL Server 1205 (deadlock
 * victim) and 3960 (snapshot update conflict). The number 1205 means this only as SQL Server's `number`: as
 * mysql2's `errno` it is a lock wait timeout ({@link isDatabaseBusy}).
 */
const CONFLICT = driverCodes(
  ['40P01', '40001', 'ER_LOCK_DEADLOCK', 'ER_CHECKREAD'],
  [1213, 1020],
  [1205, 3960],
);

/**
 * Driver answers that a lock wait ran out: MySQL/MariaDB 1205 `ER_LOCK_WAIT_TIMEOUT` (InnoDB undoes the statement;
 * the adapter's rollback the rest), PostgreSQL 55P03 (lock_not_available: `lock_timeout`, NOWAIT), SQL Server 1222,
 * and SQLite's wait for this process's own transaction ({@link TransactionWaitTimeoutError}).
 * Not re-run: the wait took its whole timeout already, and another would hold the request as long again.
 */
const LOCK_TIMEOUT = driverCodes(
  ['ER_LOCK_WAIT_TIMEOUT', '55P03', 'SVC_TRANSACTION_WAIT_TIMEOUT'],
  [1205],
  [1222],
);

/** A driver error's fields: `code` (postgres.js SQLSTATE, mysql2 name), `errno` (mysql2), `number` (mssql). */
interface DriverFields {
  code?: unknown;
  errno?: unknown;
  number?: unknown;
}

/** A test for a driver error carrying one of `codes`, mysql2 `errnos` or SQL Server `numbers`. */
function driverCodes(codes: string[], errnos: number[], numbers: number[]): (e: DriverFields) => boolean {
  const [byCode, byErrno, byNumber] = [
    new Set<unknown>(codes),
    new Set<unknown>(errnos),
    new Set<unknown>(numbers),
  ];
  return (e) => byCode.has(e.code) || byErrno.has(e.errno) || byNumber.has(e.number);
}

/** Whether `error` or a cause it wraps (drizzle's query errors do) matches `test`. */
function inCauses(error: unknown, test: (e: DriverFields) => boolean): boolean {
  let current: unknown = error;
  for (let depth = 0; current !== null && typeof current === 'object' && depth < 6; depth++) {
    if (test(current as DriverFields)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Whether `error` (or a cause it wraps) says the database picked the transaction as a deadlock's victim or
 * refused it as not serializable, and rolled it back whole: running it again is correct. `transaction` does,
 * a few times; past that (or for a statement outside a transaction) the HTTP layer answers 503 with 50003.
 */
export function isTransactionConflict(error: unknown): boolean {
  return inCauses(error, CONFLICT);
}

/**
 * Whether `error` (or a cause it wraps) says the database is reachable but another transaction stood in the way:
 * a {@link isTransactionConflict conflict} that was not (or no longer) re-run, or a lock wait that ran out. The
 * HTTP layer answers 503 with 50003 and `Retry-After`, as for an outage, but without reporting one.
 */
export function isDatabaseBusy(error: unknown): boolean {
  return inCauses(error, (e) => CONFLICT(e) || LOCK_TIMEOUT(e));
}

/**
 * Whether `error` (or a cause it wraps) says a value was text the database cannot store: PostgreSQL's 22021
 * (NUL, or bytes invalid in the encoding) and 22P05 (untranslatable character). Input the request carried (a NUL
 * in a path parameter or a file name) that reached a statement: the HTTP layer answers 48000, not a 500.
 */
export function isUnstorableText(error: unknown): boolean {
  return inCauses(error, (e) => e.code === '22021' || e.code === '22P05');
}

/**
 * Whether `error` (or a cause it wraps, as drizzle's query errors do) is a unique-constraint violation: SQLite
 * `SQLITE_CONSTRAINT_UNIQUE` (or `_PRIMARYKEY`), PostgreSQL `23505`, MySQL/MariaDB `ER_DUP_ENTRY` (1062), SQL Server 2627/2601.
 */
export function isUniqueViolation(error: unknown): boolean {
  return inCauses(
    error,
    (e) =>
      e.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
      e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
      e.code === '23505' ||
      e.code === 'ER_DUP_ENTRY' ||
      e.errno === 1062 ||
      e.number === 2627 ||
      e.number === 2601,
  );
}

/**
 * Runs a write and answers a unique-constraint violation with `onConflict()` (the business error the check
 * before it throws), so two simultaneous creates end with one success and one business code, never a 500.
 * @example await uniqueOr(() => repos.roles.insert(row), () => new BusinessError(AdminErrorCode.RoleCodeExists));
 */
export async function uniqueOr<T>(work: () => Promise<T>, onConflict: () => Error): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw onConflict();
    throw error;
  }
}
