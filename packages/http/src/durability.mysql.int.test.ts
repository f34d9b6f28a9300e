import { defineDurabilityContract } from './ops/durability.contract.js';

defineDurabilityContract('MySql', 'Redis');
