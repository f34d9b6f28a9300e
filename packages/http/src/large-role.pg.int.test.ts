import { defineLargeRoleContract } from './admin/large-role.contract.js';

defineLargeRoleContract('PostgreSQL', 'Redis');
