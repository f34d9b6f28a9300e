import { defineConfigContract } from './ops/config.contract.js';

defineConfigContract('Sqlite', 'Memory');
