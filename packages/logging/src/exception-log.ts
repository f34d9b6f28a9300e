/**
 * Records unhandled exceptions in `sys_exception_log` (spec "Exception log record"): method, path, trace id,
 * exception type, message truncated to 2000 characters and stack truncated to 8000. Request and response bodies
 * are never stored. A failure to record is logged, never thrown into the request that already failed.
 *
 * Flood guard (issue 11): identical exceptions — same type, method, path shape and message shape, with numbers,
 * UUIDs and hex ids normalised — within `windowMs` are stored once. The first one is written at once, as
 * before; the repeats are only counted, and when the window ends (at the next occurrence after it, at
 * `flush()`, which a timer and shutdown call) one summary row is written in the same shape: the first
 * repeat's trace id, the type, the path, and the message prefixed `[repeated N times in 60 s]`. So the table
 * stays readable with the specification's columns, and N identical failures cost two rows per window.
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
  /** Writes the summary rows of the windows that have ended (all of them with `all`, at shutdown). */
  flush?(all?: boolean): Promise<void>;
  /** Stops the window timer. */
  close?(): void;
}

/** Identical exceptions within this many milliseconds are stored once plus one summary row. */
export const EXCEPTION_WINDOW_MS = 60_000;
/** Distinct exceptions tracked at once; beyond it the oldest window is summarised early. */
export const EXCEPTION_KEYS_MAX = 1_000;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const HEX_ID = /\b[0-9a-f]{16,}\b/gi;
const NUMBER = /\d+(?:\.\d+)?/g;

/** A message or path with its ids and numbers replaced, so `user 12 not found` and `user 13…` are one shape. */
export function exceptionShape(text: string): string {
  return text.replace(UUID, '{id}').replace(HEX_ID, '{id}').replace(NUMBER, '{n}');
}

interface Window {
  startedAt: number;
  repeats: number;
  first: ExceptionLogEntry | undefined;
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
  /** @default EXCEPTION_WINDOW_MS */
  windowMs?: number;
  /** How often ended windows are summarised (0: only on demand). @default the window */
  flushEveryMs?: number;
}): ExceptionRecorder {
  const now = deps.now ?? (() => new Date());
  const windowMs = Math.max(1, deps.windowMs ?? EXCEPTION_WINDOW_MS);
  const windows = new Map<string, Window>();

  async function insert(entry: ExceptionLogEntry): Promise<void> {
    try {
      await deps.sink.insert(entry);
    } catch (writeError) {
      deps.logger.error('Could not write the exception log row.', {
        traceId: entry.traceId,
        error: writeError,
      });
    }
  }

  /** The summary row of a window with repeats; the window is forgotten. */
  async function close(key: string, window: Window): Promise<void> {
    windows.delete(key);
    if (window.repeats === 0 || !window.first) return;
    const seconds = Math.round(windowMs / 1000);
    const summary = `[repeated ${window.repeats} times in ${seconds} s] `;
    deps.logger.warn(
      `${summary}${window.first.exceptionType} on ${window.first.httpMethod} ${window.first.path}`,
    );
    await insert({
      ...window.first,
      message: truncate(summary + window.first.message, EXCEPTION_MESSAGE_MAX),
      createTime: now(),
    });
  }

  async function flush(all = false): Promise<void> {
    const at = now().getTime();
    for (const [key, window] of [...windows]) {
      if (all || at - window.startedAt >= windowMs) await close(key, window);
    }
  }

  const every = deps.flushEveryMs ?? windowMs;
  const timer = every > 0 ? setInterval(() => void flush(), every) : undefined;
  timer?.unref();

  return {
    async record(error, context) {
      const { type, message, stack } = describeError(error);
      const entry: ExceptionLogEntry = {
        httpMethod: context.method,
        path: truncate(context.path, 500),
        traceId: context.traceId,
        exceptionType: truncate(type, 200),
        message: truncate(message, EXCEPTION_MESSAGE_MAX),
        stackTrace: truncate(stack, EXCEPTION_STACK_MAX),
        createTime: now(),
      };
      const key = `${type}\u0000${context.method}\u0000${exceptionShape(context.path)}\u0000${exceptionShape(message)}`;
      const at = entry.createTime.getTime();
      const open = windows.get(key);
      if (open && at - open.startedAt < windowMs) {
        // A repeat: counted, summarised when the window ends; its trace id is in the service log only.
        open.repeats++;
        open.first ??= entry;
        deps.logger.debug(`Repeated ${type} on ${context.method} ${context.path}.`, {
          traceId: context.traceId,
        });
        return;
      }
      if (open) await close(key, open);
      if (windows.size >= EXCEPTION_KEYS_MAX) {
        const [oldestKey, oldest] = windows.entries().next().value as [string, Window];
        await close(oldestKey, oldest);
      }
      windows.set(key, { startedAt: at, repeats: 0, first: undefined });
      deps.logger.error(`Unhandled ${type} on ${context.method} ${context.path}: ${message}`, {
        traceId: context.traceId,
      });
      await insert(entry);
    },
    flush,
    close() {
      if (timer) clearInterval(timer);
    },
  };
}
