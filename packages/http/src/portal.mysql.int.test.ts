import { definePortalContract } from './portal/portal.contract.js';

definePortalContract('MySql', 'Memory');
