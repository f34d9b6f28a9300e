import { defineOidcContract } from './external-auth/oidc.contract.js';

defineOidcContract('MySql', 'Memory');
