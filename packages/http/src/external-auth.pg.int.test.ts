import { defineOidcContract } from './external-auth/oidc.contract.js';

defineOidcContract('PostgreSQL', 'Redis');
