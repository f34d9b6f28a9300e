import { defineMfaInputsContract } from './modules/mfa/mfa-inputs.contract.js';
import { defineStaleFactorContract } from './modules/mfa/stale-factor.contract.js';
import { defineStalePhoneContract } from './modules/mfa/stale-phone.contract.js';
import { defineTotpReplayContract } from './modules/mfa/totp-replay.contract.js';

defineStaleFactorContract('MySql', 'Memory');
defineStalePhoneContract('MySql', 'Memory');
defineTotpReplayContract('MySql', 'Memory');
defineMfaInputsContract('MySql', 'Memory');
