/**
 * @svc/modules: the framework-free engines of the built-in modules (scheduled jobs, Excel import and export,
 * external login, files and chunked upload, notices, realtime messages). They know no HTTP framework: the module
 * definitions and routes that serve them live in @svc/http (`packages/http/src/modules/<name>/`), and a worker
 * process or a script can use an engine without them. Libraries only one module needs are optional peers, loaded
 * when that module is on.
 */
export * from './external-auth/index.js';
export * from './import/index.js';
export * from './peers.js';
