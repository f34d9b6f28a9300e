import { defineMfaInputsContract } from './mfa/mfa-inputs.contract.js';
import { defineStaleFactorContract } from './mfa/stale-factor.contract.js';
import { defineStalePhoneContract } from './mfa/stale-phone.contract.js';
import { defineTotpReplayContract } from './mfa/totp-replay.contract.js';

defineStaleFactorContract('PostgreSQL', 'Redis');
defineStalePhoneContract('PostgreSQL', 'Redis');
defineTotpReplayContract('PostgreSQL', 'Redis');
defineMfaInputsContract('PostgreSQL', 'Redis');
