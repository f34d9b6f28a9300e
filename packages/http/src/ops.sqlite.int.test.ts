import { defineConfigContract } from './modules/config/config.contract.js';
import { defineLoginLogContract } from './modules/log/login-log.contract.js';
import { defineLogsScopeContract } from './modules/log/logs-scope.contract.js';
import { defineFilesContract } from './modules/upload/files.contract.js';
import { defineFilesScopeContract } from './modules/upload/files-scope.contract.js';
import { defineRoutePolicyContract } from './openapi/policy.contract.js';
import { defineOpLogContract } from './ops/oplog.contract.js';
import { defineSqlAndEventsContract } from './ops/sql-events.contract.js';

defineConfigContract('Sqlite', 'Memory');
defineOpLogContract('Sqlite', 'Memory');
defineFilesContract('Sqlite', 'Memory');
defineSqlAndEventsContract('Sqlite', 'Memory');
defineFilesScopeContract('Sqlite', 'Memory');
defineLoginLogContract('Sqlite', 'Memory');
defineLogsScopeContract('Sqlite', 'Memory');
defineRoutePolicyContract('Sqlite', 'Memory');
