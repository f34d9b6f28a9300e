/**
 * Records unhandled exceptions in `sys_exception_log` (spec "Exception log record"): method, path, trace id,
 * exception type, message truncated to 2000 characters and stack truncated to 8000. Request and response bodies
 * are never stored. A failure to record is logged, never thrown into the request that already failed.
 *
 * Flood guard (issue 11, contract §11): identical exceptions — same type, method, path shape and message shape,
 * with numbers, UUIDs and hex ids normalised — within `windowMs` are stored as two rows: the first one as it
 * happened, and one folded row for the repeats, written at the first repeat and updated as more come, with the
 * message prefixed `[repeated N times in 60 s]` and the trace ids it stands for (up to 100; beyond them only the
 * count grows). Each repeat's `record` returns once a write holding its trace id is done, so the id a user was
 * answered finds the row at once; repeats that arrive during a write share the next one (one write in flight per
 * window), and count-only changes past 100 ids wait for the window's end (the next occurrence after it,
 * `flush()`, which a timer and shutdown call). A sink without `fold` gets the folded row once, at the window's end.
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
  /** The trace ids a folded row stands for; absent on the row of one exception. */
  traceIds?: readonly string[] | undefined;
  createTime: Date;
}

/** The storage the recorder writes to (the data layer's exception-log repository satisfies it). */
export interface ExceptionLogSink {
  /** Writes a row; answers its id (a number) when the sink can `fold` into it later. */
  insert(entry: ExceptionLogEntry): Promise<unknown>;
  /** Updates a folded row's message (its count) and trace ids. */
  fold?(id: number, fold: { message: string; traceIds: readonly string[] }): Promise<unknown>;
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
/** Trace ids a folded row keeps (contract §11); beyond them only its count grows. */
export const EXCEPTION_FOLDED_TRACE_IDS_MAX = 100;

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
  /** The first repeat: the folded row's method, path, type, stack and time. */
  first: ExceptionLogEntry | undefined;
  /** The repeats' trace ids, up to {@link EXCEPTION_FOLDED_TRACE_IDS_MAX}. */
  traceIds: string[];
  /** The folded row's id once written; null when the sink answered none (it cannot be updated then). */
  rowId: number | null | undefined;
  /** The repeat count the row was last written with. */
  written: number;
  /** The write in flight (or the last one). */
  writing: Promise<void> | undefined;
  /** A write queued behind it, which repeats arriving now share. */
  queued: Promise<void> | undefined;
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

  const seconds = Math.round(windowMs / 1000);
  const foldedMessage = (window: Window & { first: ExceptionLogEntry }) =>
    truncate(
      `[repeated ${window.repeats} times in ${seconds} s] ${window.first.message}`,
      EXCEPTION_MESSAGE_MAX,
    );

  /** Writes the folded row as the window stands now: inserted the first time, updated after. */
  async function writeFolded(window: Window): Promise<void> {
    const first = window.first;
    if (!first) return;
    const repeats = window.repeats;
    const folded = { message: foldedMessage({ ...window, first }), traceIds: [...window.traceIds] };
    try {
      if (window.rowId === undefined) {
        const id = await deps.sink.insert({ ...first, ...folded });
        window.rowId = typeof id === 'number' ? id : null;
      } else if (window.rowId !== null) {
        await deps.sink.fold?.(window.rowId, folded);
      }
      window.written = repeats;
    } catch (writeError) {
      deps.logger.error('Could not write the exception log row.', {
        traceId: first.traceId,
        error: writeError,
      });
    }
  }

  /** A write of the folded row after the one in flight; repeats arriving before it starts share it. */
  function foldSoon(window: Window): Promise<void> {
    if (window.queued) return window.queued;
    const next = (window.writing ?? Promise.resolve()).then(() => {
      window.queued = undefined;
      return writeFolded(window);
    });
    window.queued = next;
    window.writing = next;
    return next;
  }

  /** The window's end: its folded row gets its final count (written now for a sink that cannot fold). */
  async function close(key: string, window: Window): Promise<void> {
    if (windows.get(key) === window) windows.delete(key);
    if (window.repeats === 0 || !window.first) return;
    await window.writing;
    deps.logger.warn(
      `[repeated ${window.repeats} times in ${seconds} s] ${window.first.exceptionType} on ${window.first.httpMethod} ${window.first.path}`,
    );
    if (window.written !== window.repeats) await writeFolded(window);
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
        // A repeat: folded into the window's second row, written at once while it brings a trace id to keep.
        open.repeats++;
        open.first ??= entry;
        deps.logger.debug(`Repeated ${type} on ${context.method} ${context.path}.`, {
          traceId: context.traceId,
        });
        if (open.traceIds.length >= EXCEPTION_FOLDED_TRACE_IDS_MAX) return;
        open.traceIds.push(context.traceId);
        if (deps.sink.fold) return foldSoon(open);
        return;
      }
      if (open) await close(key, open);
      if (windows.size >= EXCEPTION_KEYS_MAX) {
        const [oldestKey, oldest] = windows.entries().next().value as [string, Window];
        await close(oldestKey, oldest);
      }
      windows.set(key, {
        startedAt: at,
        repeats: 0,
        first: undefined,
        traceIds: [],
        rowId: undefined,
        written: 0,
        writing: undefined,
        queued: undefined,
      });
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
