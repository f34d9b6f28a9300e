import { definePortalContract, definePortalScaleOutContract } from './portal/portal.contract.js';

definePortalContract('PostgreSQL', 'Redis');
definePortalScaleOutContract('PostgreSQL');
