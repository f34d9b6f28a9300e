import {
  defineJobsContract,
  defineJobsHandlerKindsContract,
  defineJobsPanicNoticeContract,
} from './modules/job/jobs.contract.js';

defineJobsContract('PostgreSQL');
defineJobsHandlerKindsContract('PostgreSQL');
defineJobsPanicNoticeContract('PostgreSQL');
