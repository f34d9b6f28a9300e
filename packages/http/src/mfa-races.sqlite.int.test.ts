import { defineMfaInputsContract } from './mfa/mfa-inputs.contract.js';
import { defineStaleFactorContract } from './mfa/stale-factor.contract.js';
import { defineStalePhoneContract } from './mfa/stale-phone.contract.js';
import { defineTotpReplayContract } from './mfa/totp-replay.contract.js';

defineStaleFactorContract('Sqlite', 'Memory');
defineStalePhoneContract('Sqlite', 'Memory');
defineTotpReplayContract('Sqlite', 'Memory');
defineMfaInputsContract('Sqlite', 'Memory');
