import { defineLargeRoleContract } from './admin/large-role.contract.js';

defineLargeRoleContract('Sqlite', 'Memory');
