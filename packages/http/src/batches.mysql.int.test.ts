import { defineBatchContract } from './modules/admin/batches.contract.js';
import { defineRecycleContract } from './modules/recycle-bin/recycle.contract.js';

defineBatchContract('MySql', 'Memory');
defineRecycleContract('MySql', 'Memory');
