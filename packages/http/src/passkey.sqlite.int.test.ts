import { definePasskeyContract } from './modules/passkey/passkey.contract.js';

definePasskeyContract('Sqlite');
