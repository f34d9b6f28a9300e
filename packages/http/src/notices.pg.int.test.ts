import { defineNoticesContract } from './notices/notices.contract.js';

defineNoticesContract('PostgreSQL', 'Redis');
