import { defineMfaInputsContract } from './mfa/mfa-inputs.contract.js';
import { defineStaleFactorContract } from './mfa/stale-factor.contract.js';
import { defineStalePhoneContract } from './mfa/stale-phone.contract.js';
import { defineTotpReplayContract } from './mfa/totp-replay.contract.js';

defineStaleFactorContract('MySql', 'Memory');
defineStalePhoneContract('MySql', 'Memory');
defineTotpReplayContract('MySql', 'Memory');
defineMfaInputsContract('MySql', 'Memory');
