import { stuckDatabaseContract } from './outages.contract.js';

stuckDatabaseContract('Sqlite');
