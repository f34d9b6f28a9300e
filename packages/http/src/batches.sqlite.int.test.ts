import { defineBatchContract } from './admin/batches.contract.js';
import { defineRecycleContract } from './admin/recycle.contract.js';

defineBatchContract('Sqlite', 'Memory');
defineRecycleContract('Sqlite', 'Memory');
