import {
  defineJobsContract,
  defineJobsHandlerKindsContract,
  defineJobsKillSwitchContract,
  defineJobsPanicNoticeContract,
} from './jobs/jobs.contract.js';

defineJobsContract('Sqlite');
defineJobsKillSwitchContract('Sqlite');
defineJobsPanicNoticeContract('Sqlite');
defineJobsHandlerKindsContract('Sqlite');
