import { stuckDatabaseContract } from './outages.contract.js';

stuckDatabaseContract('PostgreSQL');
