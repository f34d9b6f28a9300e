import { rowLockContract } from './testing/contracts/row-lock.contract.js';

rowLockContract('PostgreSQL');
