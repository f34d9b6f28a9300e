/**
 * The service's structured logger: pino behind the kernel `Logger` port. JSON lines (one object per entry:
 * `time`, `level`, `category`, `msg`, fields) outside Development; in Development a pretty line (coloured on a
 * terminal without NO_COLOR), so the start-up banner and URL read as text. Each category gets its own minimum level from
 * `Logging:LogLevel` (longest matching prefix, as `minimumLevel` decides), e.g. `Service.Sql: Warning`.
 */
import { createRequire } from 'node:module';
import type { LogFields, Logger, LogLevel } from '@svc/kernel';
import pino, { type DestinationStream, type LevelWithSilent, type Logger as PinoLogger } from 'pino';
import type PinoPretty from 'pino-pretty';
import { minimumLevel } from './console-logger.js';

/** pino-pretty loads only for the pretty format (Development): a JSON-logging host never holds it. */
const loadPretty = (): typeof PinoPretty =>
  createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;

const PINO_LEVEL: Record<LogLevel, LevelWithSilent> = {
  Trace: 'trace',
  Debug: 'debug',
  Information: 'info',
  Warning: 'warn',
  Error: 'error',
  Critical: 'fatal',
  None: 'silent',
};

/** Options of {@link createStructuredLogger}. */
export interface StructuredLoggerOptions {
  /** Minimum level per category prefix (`Logging:LogLevel`). @default { Default: 'Information' } */
  levels?: Record<string, string>;
  /**
   * `json` (one JSON object per line) or `pretty` (human-readable; coloured on a terminal).
   * @default 'pretty' in Development (a developer reads it, also when piped), else 'json'
   */
  format?: 'json' | 'pretty';
  /** Development environment (selects the pretty format on a terminal). @default false */
  development?: boolean;
  /** Where lines go (tests pass a collector). @default stdout */
  destination?: DestinationStream;
  /** Root category. @default 'Service' */
  category?: string;
}

/** Errors become `{type, message}`: pino's default would print `{}` for an Error nested in fields. */
function plainFields(fields: LogFields | undefined): LogFields | undefined {
  if (!fields) return undefined;
  let out: LogFields | undefined;
  for (const [key, value] of Object.entries(fields)) {
    if (value instanceof Error) {
      out ??= { ...fields };
      out[key] = { type: value.name, message: value.message };
    }
  }
  return out ?? fields;
}

function wrap(root: PinoLogger, levels: Record<string, string>, category: string): Logger {
  const level = PINO_LEVEL[minimumLevel(levels, category)];
  const log = root.child({ category }, { level });
  const emit = (method: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: LogFields) => {
    if (!log.isLevelEnabled(method)) return;
    const extra = plainFields(fields);
    if (extra && Object.keys(extra).length > 0) log[method](extra, message);
    else log[method](message);
  };
  return {
    category,
    isEnabled: (wanted) => wanted !== 'None' && log.isLevelEnabled(PINO_LEVEL[wanted]),
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (next) => wrap(root, levels, next),
  };
}

/**
 * Creates the root logger; `child(category)` derives the others with their own level.
 * @example
 * const logger = createStructuredLogger({ levels: config.logging.LogLevel, development: env.isDevelopment });
 * logger.child('Service.Sql').info('…');
 */
export function createStructuredLogger(options: StructuredLoggerOptions = {}): Logger {
  const levels = options.levels ?? { Default: 'Information' };
  const format = options.format ?? (options.development ? 'pretty' : 'json');
  const destination =
    options.destination ??
    (format === 'pretty'
      ? loadPretty()({
          colorize: process.stdout.isTTY === true && !process.env.NO_COLOR,
          translateTime: 'SYS:HH:MM:ss.l',
          ignore: 'pid,hostname,category',
          messageFormat: '{category}: {msg}',
          singleLine: false,
        })
      : pino.destination({ dest: 1, sync: true }));
  // The root lets everything through; each category's child sets its own threshold.
  const root = pino(
    {
      level: 'trace',
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
  return wrap(root, levels, options.category ?? 'Service');
}
