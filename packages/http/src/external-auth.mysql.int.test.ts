import { defineOidcContract } from './modules/external-auth/oidc.contract.js';

defineOidcContract('MySql', 'Memory');
