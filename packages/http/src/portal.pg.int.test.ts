import { definePortalContract, definePortalScaleOutContract } from './modules/portal/portal.contract.js';

definePortalContract('PostgreSQL', 'Redis');
definePortalScaleOutContract('PostgreSQL');
