import { defineNoticesContract } from './notices/notices.contract.js';

defineNoticesContract('MySql', 'Memory');
