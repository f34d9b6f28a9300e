/**
 * @svc/logging: the structured logger (pino), the console logger for tests, masking, exception recording,
 * the operation-log writer and parameter text, and the SQL console log with slow/failed-SQL warnings.
 */
export * from './console-logger.js';
export * from './exception-log.js';
export * from './masking.js';
export * from './oplog/params.js';
export * from './oplog/writer.js';
export * from './sql/format.js';
export * from './sql/sql-log.js';
export * from './structured-logger.js';
