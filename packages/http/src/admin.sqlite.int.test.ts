import { defineGrantContract } from './admin/grants.contract.js';
import { defineScopeContract } from './admin/scope.contract.js';
import { defineUserAdminContract } from './admin/users.contract.js';

defineUserAdminContract('Sqlite', 'Memory');
defineGrantContract('Sqlite', 'Memory');
defineScopeContract('Sqlite', 'Memory');
