import { defineMfaInputsContract } from './modules/mfa/mfa-inputs.contract.js';
import { defineStaleFactorContract } from './modules/mfa/stale-factor.contract.js';
import { defineStalePhoneContract } from './modules/mfa/stale-phone.contract.js';
import { defineTotpReplayContract } from './modules/mfa/totp-replay.contract.js';

defineStaleFactorContract('Sqlite', 'Memory');
defineStalePhoneContract('Sqlite', 'Memory');
defineTotpReplayContract('Sqlite', 'Memory');
defineMfaInputsContract('Sqlite', 'Memory');
