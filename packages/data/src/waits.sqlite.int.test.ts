import { databaseWaitsContract } from './testing/contracts/waits.contract.js';

databaseWaitsContract('Sqlite');
