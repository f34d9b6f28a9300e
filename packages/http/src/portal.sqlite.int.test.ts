import { definePortalContract, definePortalScaleOutContract } from './portal/portal.contract.js';

definePortalContract('Sqlite', 'Memory');
definePortalScaleOutContract('Sqlite');
