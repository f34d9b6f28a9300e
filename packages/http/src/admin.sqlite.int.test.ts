import { defineUserAdminContract } from './admin/users.contract.js';

defineUserAdminContract('Sqlite', 'Memory');
