/** The rules of module `Config` that are not @svc/data's config service: who may write which key. */
export { assertConfigKeyWritableBy } from './config-keys.js';
