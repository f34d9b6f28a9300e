import { defineLargeRoleContract } from './modules/admin/large-role.contract.js';

defineLargeRoleContract('Sqlite', 'Memory');
