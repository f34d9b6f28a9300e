/**
 * Error handling for the whole app: business errors become envelopes, framework errors (malformed JSON,
 * oversized bodies) become their envelope codes, an unreachable dependency or a database that gave up on a lock
 * conflict a 503, and anything else is a 500 that is recorded in the exception log and never echoed to the
 * client.
 */
import { isDatabaseBusy, isDatabaseUnavailable, isUnstorableText } from '@svc/data';
import { CacheUnavailableError } from '@svc/data/cache';
import type { ErrorArgs, ErrorCodeMember, ErrorCodeRegistry, Logger } from '@svc/kernel';
import { ErrorCode, fail, isBusinessError } from '@svc/kernel';
import type { ExceptionRecorder } from '@svc/logging';
import type { Context, ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ZodError } from 'zod';
import type { AppEnv } from '../context.js';
import { httpStatusOf } from './status.js';

/** Renders an envelope failure with the status the code maps to (or an explicit one). */
export function failure(
  c: Context,
  registry: ErrorCodeRegistry,
  member: ErrorCodeMember | number,
  args?: ErrorArgs,
  status?: number,
): Response {
  const code = typeof member === 'number' ? member : member.code;
  return c.json(fail(code, registry.msgKeyOf(code), args), (status ?? httpStatusOf(code)) as 200);
}

/** `{path, message}` per validation issue (contract §3: `args.errors`). */
export function validationErrors(error: ZodError): { path: string; message: string }[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String).join('.');
    // An unknown property is named by its own path, so a client sees which field was refused.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: path ? `${path}.${key}` : key, message: 'Unrecognized key' }));
    }
    return [{ path, message: issue.message }];
  });
}

/** `Retry-After` of an outage answer (50003, 50004): a few seconds, so clients back off without giving up. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/**
 * `Retry-After` of a lock-conflict answer (50003 for a deadlock or serialization failure that outlasted the
 * transaction's own re-runs, or a lock wait that ran out): one second, since the database is up and the writer
 * that stood in the way is usually done by then.
 */
export const CONFLICT_RETRY_AFTER_SECONDS = 1;

/** An outage or lock conflicts are logged as one warning per kind and this interval, never a row or line a request. */
export const OUTAGE_LOG_INTERVAL_MS = 60_000;

/**
 * The dependency `error` says is unreachable, or undefined for any other error. Database driver errors are
 * recognised by `isDatabaseUnavailable` (socket failures, connection and timeout codes); the cache reports
 * its own outage as `CacheUnavailableError` (only for challenges that live in the shared cache alone).
 */
export function outageOf(error: unknown): 'database' | 'cache' | undefined {
  if (error instanceof CacheUnavailableError) return 'cache';
  return isDatabaseUnavailable(error) ? 'database' : undefined;
}

export function createErrorHandler(deps: {
  errors: ErrorCodeRegistry;
  exceptions: ExceptionRecorder;
  /** Receives the throttled outage warnings. */
  logger?: Logger;
}): ErrorHandler<AppEnv> {
  const lastWarned = {
    database: Number.NEGATIVE_INFINITY,
    cache: Number.NEGATIVE_INFINITY,
    conflict: Number.NEGATIVE_INFINITY,
  };
  /** Warns once per kind and interval. */
  const warnThrottled = (kind: keyof typeof lastWarned, message: string, error: unknown) => {
    const at = Date.now();
    if (at - lastWarned[kind] < OUTAGE_LOG_INTERVAL_MS) return;
    lastWarned[kind] = at;
    deps.logger?.warn(message, { error });
  };
  return async function handleError(error, c) {
    if (isBusinessError(error)) return failure(c, deps.errors, error.code, error.args);
    if (error instanceof HTTPException) {
      if (error.status === 413) return failure(c, deps.errors, ErrorCode.PayloadTooLarge);
      if (error.status === 400) {
        return failure(c, deps.errors, ErrorCode.ParamInvalid, {
          errors: [{ path: '', message: error.message }],
        });
      }
      if (error.status < 500) return failure(c, deps.errors, ErrorCode.ParamInvalid, undefined, error.status);
    }
    if (clientGone(c, error)) {
      // A client that aborted or broke the body's framing: its failure, not the service's (issue 11). Asked
      // before the outage test: the aborted request stream's ECONNRESET is no database outage, and reporting one
      // would silence the warning of a real outage for its interval.
      return failure(c, deps.errors, ErrorCode.ParamInvalid, {
        errors: [{ path: '', message: 'request body aborted or malformed' }],
      });
    }
    if (isUnstorableText(error)) {
      // Text from the request the database cannot store (a NUL in a path parameter, on PostgreSQL). At debug
      // level: a client can send it at will, yet a server-made NUL (a provider's claim) should leave a trace.
      deps.logger?.debug('Text the database cannot store reached a statement; answered 48000.', { error });
      return failure(c, deps.errors, ErrorCode.ParamInvalid, {
        errors: [{ path: '', message: 'must not contain NUL or text the database cannot store' }],
      });
    }
    if (isDatabaseBusy(error)) {
      // A deadlock victim or serialization failure the transaction's re-runs did not get past, or a lock wait
      // that ran out: the database is up, so this is no outage (and must not silence the warning of one), nor a
      // 500: the client may simply try again.
      warnThrottled(
        'conflict',
        'The database gave up on a lock conflict (deadlock, serialization failure, lock wait); answered 503.',
        error,
      );
      c.header('Retry-After', String(CONFLICT_RETRY_AFTER_SECONDS));
      return failure(c, deps.errors, ErrorCode.DatabaseUnavailable);
    }
    const outage = outageOf(error);
    if (outage !== undefined) {
      warnThrottled(
        outage,
        `The ${outage} is unavailable; requests that need it answer 503 meanwhile.`,
        error,
      );
      c.header('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS));
      const code = outage === 'database' ? ErrorCode.DatabaseUnavailable : ErrorCode.CacheUnavailable;
      return failure(c, deps.errors, code);
    }
    const traceId = c.get('traceId') ?? '';
    await deps.exceptions.record(error, { method: c.req.method, path: c.req.path, traceId });
    return failure(c, deps.errors, ErrorCode.SystemError, { traceId });
  };
}

/**
 * Whether the failure comes from the request body going away: the Node request was aborted or broke (client
 * disconnect, malformed chunked framing) before it was complete, or the body stream reports an abort.
 */
export function clientGone(c: Context, error: unknown): boolean {
  const incoming = (c.env as { incoming?: { destroyed?: boolean; complete?: boolean; errored?: unknown } })
    ?.incoming;
  if (incoming && ((incoming.destroyed && !incoming.complete) || incoming.errored)) return true;
  return error instanceof Error && error.name === 'AbortError';
}

export function createNotFoundHandler(deps: { errors: ErrorCodeRegistry }): NotFoundHandler<AppEnv> {
  return function notFound(c) {
    return failure(c, deps.errors, ErrorCode.NotFound, { path: c.req.path });
  };
}
