import { defineNoticeKillSwitchContract, defineNoticesContract } from './notices/notices.contract.js';

defineNoticesContract('Sqlite', 'Memory');
defineNoticeKillSwitchContract('Sqlite');
