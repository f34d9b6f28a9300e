/**
 * Argument checks, JSON encoding and handler invocation shared by the cache providers, so that both treat
 * times to live, counter steps, values and misbehaving subscribers the same way.
 */
import { CacheError, type MessageHandler } from './port.js';

/** Receives errors nobody awaits: subscriber failures and background connection trouble. */
export type CacheErrorReporter = (error: unknown) => void;

/** Writes unawaited errors to stderr; a consumer passes its logger instead. */
export const reportToConsole: CacheErrorReporter = (error) => {
  console.error('[@svc/data cache]', error);
};

/** Validates a time to live: `undefined` stays unlimited, anything else must be a positive finite number. */
export function normalizeTtl(ttlMs: number | undefined): number | undefined {
  if (ttlMs === undefined) return undefined;
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) {
    throw new RangeError(`Cache TTL must be a positive number of milliseconds, got ${ttlMs}`);
  }
  return Math.ceil(ttlMs);
}

/** Validates a counter step: a safe integer (Redis INCRBY accepts nothing else). */
export function normalizeStep(by: number | undefined): number {
  const step = by ?? 1;
  if (!Number.isSafeInteger(step)) {
    throw new RangeError(`Cache increment step must be a safe integer, got ${step}`);
  }
  return step;
}

/** JSON text of a value; rejects what JSON cannot carry at the top level (`undefined`, functions). */
export function encodeJson(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined) {
    throw new TypeError(`Cache values must be JSON-serialisable, got ${typeof value}`);
  }
  return json;
}

/** Parses a stored counter; a non-integer means the key holds a value. */
export function parseCounter(key: string, raw: string | null | undefined): number {
  if (raw === null || raw === undefined) return 0;
  if (!/^-?\d+$/.test(raw)) throw notACounter(key);
  return Number(raw);
}

export function notACounter(key: string): CacheError {
  return new CacheError(`Cache key "${key}" holds a value, not a counter`);
}

export function closedError(): CacheError {
  return new CacheError('The cache is closed');
}

/** Calls a subscriber without letting its failure reach the publisher or the connection. */
export function deliver<T>(handler: MessageHandler<T>, message: T, onError: CacheErrorReporter): void {
  try {
    const result = handler(message);
    if (result instanceof Promise) result.catch(onError);
  } catch (error) {
    onError(error);
  }
}
