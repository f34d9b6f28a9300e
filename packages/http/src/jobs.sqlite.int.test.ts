import {
  defineJobsContract,
  defineJobsHandlerKindsContract,
  defineJobsKillSwitchContract,
  defineJobsPanicNoticeContract,
} from './modules/job/jobs.contract.js';

defineJobsContract('Sqlite');
defineJobsKillSwitchContract('Sqlite');
defineJobsPanicNoticeContract('Sqlite');
defineJobsHandlerKindsContract('Sqlite');
