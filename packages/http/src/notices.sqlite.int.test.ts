import { defineNoticeKillSwitchContract, defineNoticesContract } from './modules/notice/notices.contract.js';
import { defineNoticesScopeContract } from './modules/notice/notices-scope.contract.js';

defineNoticesContract('Sqlite', 'Memory');
defineNoticesScopeContract('Sqlite', 'Memory');
defineNoticeKillSwitchContract('Sqlite');
