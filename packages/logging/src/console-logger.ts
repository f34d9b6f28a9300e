/**
 * Console logger with per-category minimum levels (`Logging:LogLevel`, longest matching category prefix wins,
 * as in ASP.NET). One line per entry: time, level, category, message, then fields as JSON.
 */
import type { LogFields, Logger, LogLevel } from '@svc/kernel';

const ORDER: Record<LogLevel, number> = {
  Trace: 0,
  Debug: 1,
  Information: 2,
  Warning: 3,
  Error: 4,
  Critical: 5,
  None: 6,
};
const SHORT: Record<LogLevel, string> = {
  Trace: 'trce',
  Debug: 'dbug',
  Information: 'info',
  Warning: 'warn',
  Error: 'fail',
  Critical: 'crit',
  None: '',
};

export interface ConsoleLoggerOptions {
  /** Minimum level per category prefix; `Default` applies when nothing matches. @default { Default: 'Information' } */
  levels?: Record<string, string>;
  /** Where lines go. @default process.stdout / process.stderr by level */
  sink?: (line: string, level: LogLevel) => void;
  /** @default () => new Date() */
  now?: () => Date;
}

function toLevel(value: string | undefined): LogLevel | undefined {
  if (!value) return undefined;
  const hit = (Object.keys(ORDER) as LogLevel[]).find((l) => l.toLowerCase() === value.trim().toLowerCase());
  return (
    hit ??
    (value.toLowerCase() === 'warn' ? 'Warning' : value.toLowerCase() === 'info' ? 'Information' : undefined)
  );
}

/** The minimum level for a category: the longest configured prefix (segments split by `.`), else `Default`. */
export function minimumLevel(levels: Record<string, string>, category: string): LogLevel {
  let best: { len: number; level: LogLevel } | undefined;
  for (const [prefix, value] of Object.entries(levels)) {
    const level = toLevel(value);
    if (!level || prefix.toLowerCase() === 'default') continue;
    const p = prefix.toLowerCase();
    const c = category.toLowerCase();
    if ((c === p || c.startsWith(`${p}.`)) && (!best || p.length > best.len)) best = { len: p.length, level };
  }
  const fallback = Object.entries(levels).find(([k]) => k.toLowerCase() === 'default')?.[1];
  return best?.level ?? toLevel(fallback) ?? 'Information';
}

const defaultSink = (line: string, level: LogLevel) => {
  (ORDER[level] >= ORDER.Warning ? process.stderr : process.stdout).write(`${line}\n`);
};

/** Creates the root logger; `child(category)` derives the others. */
export function createConsoleLogger(options: ConsoleLoggerOptions = {}, category = 'Service'): Logger {
  const levels = options.levels ?? { Default: 'Information' };
  const sink = options.sink ?? defaultSink;
  const now = options.now ?? (() => new Date());
  const min = ORDER[minimumLevel(levels, category)];
  const write = (level: LogLevel, message: string, fields?: LogFields) => {
    if (ORDER[level] < min) return;
    const extra = fields && Object.keys(fields).length > 0 ? ` ${safeJson(fields)}` : '';
    sink(`${now().toISOString()} ${SHORT[level]} ${category}: ${message}${extra}`, level);
  };
  return {
    category,
    isEnabled: (level) => level !== 'None' && ORDER[level] >= min,
    debug: (m, f) => write('Debug', m, f),
    info: (m, f) => write('Information', m, f),
    warn: (m, f) => write('Warning', m, f),
    error: (m, f) => write('Error', m, f),
    child: (next) => createConsoleLogger(options, next),
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v) => (v instanceof Error ? { name: v.name, message: v.message } : v));
  } catch {
    return '"<unserializable>"';
  }
}
