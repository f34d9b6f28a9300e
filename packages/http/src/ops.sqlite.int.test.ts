import { defineRoutePolicyContract } from './openapi/policy.contract.js';
import { defineConfigContract } from './ops/config.contract.js';
import { defineFilesContract } from './ops/files.contract.js';
import { defineFilesScopeContract } from './ops/files-scope.contract.js';
import { defineLoginLogContract } from './ops/login-log.contract.js';
import { defineLogsScopeContract } from './ops/logs-scope.contract.js';
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
