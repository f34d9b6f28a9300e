import { defineLargeRoleContract } from './admin/large-role.contract.js';

defineLargeRoleContract('MySql', 'Memory');
