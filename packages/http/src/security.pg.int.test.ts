import { defineAuthContract } from './security/auth.contract.js';
import { defineMachineContract } from './security/machine.contract.js';
import { defineProtectionContract } from './security/protection.contract.js';
import { defineSessionEndContract } from './security/session-end.contract.js';
import { defineSessionModeContract } from './security/session-modes.contract.js';

defineAuthContract('PostgreSQL', 'Redis');
defineSessionModeContract('PostgreSQL', 'Redis');
defineSessionEndContract('PostgreSQL', 'Redis');
defineMachineContract('PostgreSQL', 'Redis');
defineProtectionContract('PostgreSQL', 'Redis');
