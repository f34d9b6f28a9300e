/**
 * Opens the SQL console log's per-request scope (AsyncLocalStorage inside @svc/logging), so the statements of
 * one HTTP request are counted together and summarised when it ends. Mounted only when the console log and its
 * request summary are on.
 */
import type { SqlLog } from '@svc/logging';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.js';

export function sqlRequestScope(sqlLog: SqlLog): MiddlewareHandler<AppEnv> {
  return async function sqlRequestScopeMiddleware(c, next) {
    await sqlLog.runRequest(`${c.req.method} ${c.req.path}`, () => next());
  };
}
