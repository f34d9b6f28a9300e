/**
 * Module `Log`: the operation, login and exception logs (`/sys/log`), read within the caller's data scope and
 * cleared by a caller of scope All. Its services are the core's log repositories and the Admin module's data
 * scopes (`use(adminModule)`). The logs' retention (`Logging:RetentionDays`) is a reclaimer of the scheduled
 * clean-up (@svc/modules `logRetentionReclaimer`).
 */
import { defineModule } from '../../module/define.js';
import { adminModule } from '../admin/index.js';
import * as exceptionClear from './routes/exception-clear.js';
import * as exceptionPage from './routes/exception-page.js';
import * as loginClear from './routes/login-clear.js';
import * as loginPage from './routes/login-page.js';
import * as opClear from './routes/op-clear.js';
import * as opPage from './routes/op-page.js';
import type { LogRouteDeps } from './services.js';

export type { LogRouteDeps } from './services.js';

export const logModule = defineModule({
  name: 'Log',
  dependsOn: [adminModule],
  services: ({ core, use }): LogRouteDeps => ({
    opLogs: core.repos.opLogs,
    loginLogs: core.repos.loginLogs,
    exceptionLogs: core.repos.exceptionLogs,
    scopes: use(adminModule).admin.scopes,
  }),
  routes: [opPage, opClear, loginPage, loginClear, exceptionPage, exceptionClear],
});
