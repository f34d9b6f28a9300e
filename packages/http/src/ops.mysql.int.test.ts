import { defineConfigContract } from './modules/config/config.contract.js';
import { defineLoginLogContract } from './modules/log/login-log.contract.js';
import { defineLogsScopeContract } from './modules/log/logs-scope.contract.js';
import { defineFilesContract } from './modules/upload/files.contract.js';
import { defineFilesScopeContract } from './modules/upload/files-scope.contract.js';
import { defineRoutePolicyContract } from './openapi/policy.contract.js';
import { defineOpLogContract } from './ops/oplog.contract.js';
import { defineSqlAndEventsContract } from './ops/sql-events.contract.js';

defineConfigContract('MySql', 'Memory');
defineOpLogContract('MySql', 'Memory');
defineFilesContract('MySql', 'Memory');
defineSqlAndEventsContract('MySql', 'Memory');
defineFilesScopeContract('MySql', 'Memory');
defineLoginLogContract('MySql', 'Memory');
defineLogsScopeContract('MySql', 'Memory');
defineRoutePolicyContract('MySql', 'Memory');
