import { defineDurabilityContract } from './ops/durability.contract.js';

defineDurabilityContract('Sqlite', 'Memory');
