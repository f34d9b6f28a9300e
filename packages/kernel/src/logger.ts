/**
 * The logging port every layer takes in its deps. Categories name the emitter (`Service.Sql`,
 * `Service.Startup`); the logging package provides the console implementation.
 */

export type LogLevel = 'Trace' | 'Debug' | 'Information' | 'Warning' | 'Error' | 'Critical' | 'None';

export type LogFields = Record<string, unknown>;

export interface Logger {
  readonly category: string;
  isEnabled(level: LogLevel): boolean;
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger for another category with the same sink and level rules. */
  child(category: string): Logger;
}

/** A logger that drops everything (tests, libraries used without a host). */
export const silentLogger: Logger = {
  category: 'silent',
  isEnabled: () => false,
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};
