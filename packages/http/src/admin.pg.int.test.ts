import { defineGrantContract } from './admin/grants.contract.js';
import { defineScopeContract } from './admin/scope.contract.js';
import { defineUserAdminContract } from './admin/users.contract.js';

defineUserAdminContract('PostgreSQL', 'Redis');
defineGrantContract('PostgreSQL', 'Redis');
defineScopeContract('PostgreSQL', 'Redis');
