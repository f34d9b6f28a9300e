import { defineAuthContract } from './security/auth.contract.js';
import { defineMachineContract } from './security/machine.contract.js';
import { defineProtectionContract } from './security/protection.contract.js';
import { defineSessionEndContract } from './security/session-end.contract.js';
import { defineSessionModeContract } from './security/session-modes.contract.js';

defineAuthContract('Sqlite', 'Memory');
defineSessionModeContract('Sqlite', 'Memory');
defineSessionEndContract('Sqlite', 'Memory');
defineMachineContract('Sqlite', 'Memory');
defineProtectionContract('Sqlite', 'Memory');
