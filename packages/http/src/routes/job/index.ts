/**
 * Scheduled jobs (module `Job`): registers the routes when the module is enabled and the server built its job
 * module. Fixed paths come before the `{id}` routes they would otherwise be matched by.
 */
import type { HttpDeps } from '../../deps.js';
import type { RegisterContext } from '../../openapi/register.js';
import * as batchDelete from './batch-delete.js';
import * as create from './create.js';
import * as dashboard from './dashboard.js';
import * as remove from './delete.js';
import * as enabled from './enabled.js';
import * as handlers from './handlers.js';
import * as logClear from './log-clear.js';
import * as logKill from './log-kill.js';
import * as logPage from './log-page.js';
import * as page from './page.js';
import * as previewCron from './preview-cron.js';
import * as run from './run.js';
import * as update from './update.js';

const ROUTES = [
  page,
  handlers,
  dashboard,
  logPage,
  logClear,
  logKill,
  previewCron,
  batchDelete,
  create,
  update,
  remove,
  enabled,
  run,
];

export function registerJobRoutes(ctx: RegisterContext, deps: HttpDeps): void {
  if (!deps.jobs) return;
  const d = { jobs: deps.jobs };
  for (const route of ROUTES) route.register({ ...ctx, module: 'Job' }, d);
}
