import {
  defineJobsContract,
  defineJobsHandlerKindsContract,
  defineJobsPanicNoticeContract,
} from './jobs/jobs.contract.js';

defineJobsContract('PostgreSQL');
defineJobsHandlerKindsContract('PostgreSQL');
defineJobsPanicNoticeContract('PostgreSQL');
