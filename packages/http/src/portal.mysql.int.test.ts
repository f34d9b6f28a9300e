import { definePortalContract } from './modules/portal/portal.contract.js';

definePortalContract('MySql', 'Memory');
