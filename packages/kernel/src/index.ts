/**
 * @svc/kernel: error codes and registry, envelope, crypto and options. Framework-free.
 */
export * from './clock.js';
export * from './crypto/constants.js';
export * from './crypto/dev-key.js';
export * from './crypto/guid.js';
export * from './crypto/hash.js';
export * from './crypto/password.js';
export * from './crypto/random.js';
export * from './crypto/trace-id.js';
export * from './envelope.js';
export * from './errors/business-error.js';
export * from './errors/codes.js';
export * from './errors/define.js';
export * from './errors/registry.js';
export * from './logger.js';
export * from './options/leaf.js';
export * from './options/load.js';
export * from './options/parse.js';
export * from './options/runtime-keys.js';
export * from './options/schema.js';
export * from './phone.js';
export * from './version-range.js';
