import { defineOidcContract } from './modules/external-auth/oidc.contract.js';

defineOidcContract('PostgreSQL', 'Redis');
