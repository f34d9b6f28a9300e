/** The cache actions of module `Cache`. */
export { type CacheActions, type CacheActionsDeps, createCacheActions } from './actions.js';
