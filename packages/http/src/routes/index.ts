/**
 * Registers every built-in route whose module is enabled (`Service:Api:DisabledModules`): a removed module's
 * routes answer 404 and leave the contract.
 */

import { adminServicesFor } from '../admin/services.js';
import type { HttpDeps } from '../deps.js';
import type { RegisterContext } from '../openapi/register.js';
import { registerAdminRoutes } from './admin/index.js';
import * as login from './auth/login.js';
import * as logout from './auth/logout.js';
import * as ping from './auth/ping.js';
import * as refresh from './auth/refresh.js';
import * as dashboardSummary from './dashboard/summary.js';
import { registerExcelRoutes } from './excel/index.js';
import { registerExternalAuthRoutes } from './external/index.js';
import * as live from './health/live.js';
import * as ready from './health/ready.js';
import { registerJobRoutes } from './job/index.js';
import * as errorCodes from './meta/error-codes.js';
import { registerMfaRoutes } from './mfa/index.js';
import { registerNoticeRoutes } from './notice/index.js';
import { registerOpsRoutes } from './ops/index.js';
import * as personalPassword from './personal/password.js';
import * as personalPhoneCode from './personal/phone-code.js';
import * as personalPhoneDelete from './personal/phone-delete.js';
import * as personalPhonePut from './personal/phone-put.js';
import { registerPortalRoutes } from './portal/index.js';

/** True when the module is not listed in `Service:Api:DisabledModules` (case-insensitive). */
export function isModuleEnabled(deps: Pick<HttpDeps, 'config'>, module: string): boolean {
  return !deps.config.service.Api.DisabledModules.some((m) => m.toLowerCase() === module.toLowerCase());
}

export function registerBuiltInRoutes(ctx: RegisterContext, deps: HttpDeps): void {
  // The area each group belongs to, documented as `x-module` (ops routes name their switchable module).
  const area = (module: string): RegisterContext => ({ ...ctx, module });
  live.register(area('Health'));
  ready.register(area('Health'), deps);
  login.register(area('Auth'), deps.security, deps.now);
  refresh.register(area('Auth'), deps.security, deps.now);
  logout.register(area('Auth'), deps.security);
  ping.register(area('Auth'), deps.now);
  personalPassword.register(area('Personal'), deps.security);
  const phoneDeps = { phone: deps.core.mfa.phone, resolveClientIp: deps.security.resolveClientIp };
  for (const route of [personalPhoneCode, personalPhonePut, personalPhoneDelete])
    route.register(area('Personal'), phoneDeps);
  if (isModuleEnabled(deps, 'Meta')) errorCodes.register(area('Meta'), deps);
  registerMfaRoutes(area('Mfa'), deps);
  // Before the admin routes: `GET /sys/user/export` must not be taken for `GET /sys/user/{id}`.
  if (isModuleEnabled(deps, 'Import')) registerExcelRoutes(area('Import'), deps);
  if (isModuleEnabled(deps, 'ExternalAuth')) registerExternalAuthRoutes(area('ExternalAuth'), deps);
  registerAdminRoutes(area('Admin'), deps);
  registerOpsRoutes(ctx, deps);
  if (isModuleEnabled(deps, 'Module')) registerPortalRoutes(area('Module'), deps);
  if (isModuleEnabled(deps, 'Dashboard'))
    dashboardSummary.register(area('Dashboard'), { admin: adminServicesFor(deps) });
  if (isModuleEnabled(deps, 'Notice')) registerNoticeRoutes(area('Notice'), deps);
  if (isModuleEnabled(deps, 'Job')) registerJobRoutes(ctx, deps);
}
