import { defineDurabilityContract } from './ops/durability.contract.js';

defineDurabilityContract('PostgreSQL', 'Redis');
