import { defineNoticesContract } from './notices/notices.contract.js';
import { defineNoticesScopeContract } from './notices/notices-scope.contract.js';

defineNoticesContract('MySql', 'Memory');
defineNoticesScopeContract('MySql', 'Memory');
