/**
 * @svc/logging: console logger, masking, exception log recording.
 */
export * from './console-logger.js';
export * from './exception-log.js';
export * from './masking.js';
