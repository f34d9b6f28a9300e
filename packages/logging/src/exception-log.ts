/**
 * Records unhandled exceptions in `sys_exception_log` (spec "Exception log record"): method, path, trace id,
 * exception type, message truncated to 2000 characters and stack truncated to 8000. Request and response bodies
 * are never stored. A failure to record is logged, never thrown into the request that already failed.
 */
import type { Logger } from '@svc/kernel';

export const EXCEPTION_MESSAGE_MAX = 2000;
export const EXCEPTION_STACK_MAX = 8000;

export interface ExceptionLogEntry {
  httpMethod: string;
  path: string;
  traceId: string;
  exceptionType: string;
  message: string;
  stackTrace: string;
  createTime: Date;
}

/** The storage the recorder writes to (the data layer's exception-log repository satisfies it). */
export interface ExceptionLogSink {
  insert(entry: ExceptionLogEntry): Promise<unknown>;
}

export interface ExceptionContext {
  method: string;
  path: string;
  traceId: string;
}

export interface ExceptionRecorder {
  record(error: unknown, context: ExceptionContext): Promise<void>;
}

/** Truncates to `max` characters without splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

export function describeError(error: unknown): { type: string; message: string; stack: string } {
  if (error instanceof Error) {
    return {
      type: error.constructor?.name || error.name || 'Error',
      message: error.message,
      stack: error.stack ?? '',
    };
  }
  let message: string;
  try {
    message = typeof error === 'string' ? error : (JSON.stringify(error) ?? String(error));
  } catch {
    message = String(error);
  }
  return { type: typeof error, message, stack: '' };
}

export function createExceptionRecorder(deps: {
  sink: ExceptionLogSink;
  logger: Logger;
  now?: () => Date;
}): ExceptionRecorder {
  const now = deps.now ?? (() => new Date());
  return {
    async record(error, context) {
      const { type, message, stack } = describeError(error);
      deps.logger.error(`Unhandled ${type} on ${context.method} ${context.path}: ${message}`, {
        traceId: context.traceId,
      });
      try {
        await deps.sink.insert({
          httpMethod: context.method,
          path: truncate(context.path, 500),
          traceId: context.traceId,
          exceptionType: truncate(type, 200),
          message: truncate(message, EXCEPTION_MESSAGE_MAX),
          stackTrace: truncate(stack, EXCEPTION_STACK_MAX),
          createTime: now(),
        });
      } catch (writeError) {
        deps.logger.error('Could not write the exception log row.', {
          traceId: context.traceId,
          error: writeError,
        });
      }
    },
  };
}
