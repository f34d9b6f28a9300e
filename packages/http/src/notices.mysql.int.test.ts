import { defineNoticesContract } from './modules/notice/notices.contract.js';
import { defineNoticesScopeContract } from './modules/notice/notices-scope.contract.js';

defineNoticesContract('MySql', 'Memory');
defineNoticesScopeContract('MySql', 'Memory');
