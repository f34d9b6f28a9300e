import { deadlockContract } from './testing/contracts/deadlock.contract.js';

deadlockContract('PostgreSQL');
