import { defineGrantContract } from './admin/grants.contract.js';
import { defineScopeContract } from './admin/scope.contract.js';
import { defineUserAdminContract } from './admin/users.contract.js';

defineUserAdminContract('MySql', 'Memory');
defineGrantContract('MySql', 'Memory');
defineScopeContract('MySql', 'Memory');
