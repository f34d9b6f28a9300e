import { definePortalContract, definePortalScaleOutContract } from './modules/portal/portal.contract.js';

definePortalContract('Sqlite', 'Memory');
definePortalScaleOutContract('Sqlite');
