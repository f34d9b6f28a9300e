import { defineBatchContract } from './admin/batches.contract.js';
import { defineRecycleContract } from './admin/recycle.contract.js';

defineBatchContract('PostgreSQL', 'Redis');
defineRecycleContract('PostgreSQL', 'Redis');
