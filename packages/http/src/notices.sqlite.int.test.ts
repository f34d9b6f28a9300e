import { defineNoticeKillSwitchContract, defineNoticesContract } from './notices/notices.contract.js';
import { defineNoticesScopeContract } from './notices/notices-scope.contract.js';

defineNoticesContract('Sqlite', 'Memory');
defineNoticesScopeContract('Sqlite', 'Memory');
defineNoticeKillSwitchContract('Sqlite');
