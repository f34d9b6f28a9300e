import {
  defineJobsContract,
  defineJobsHandlerKindsContract,
  defineJobsKillSwitchContract,
} from './jobs/jobs.contract.js';

defineJobsContract('Sqlite');
defineJobsKillSwitchContract('Sqlite');
defineJobsHandlerKindsContract('Sqlite');
