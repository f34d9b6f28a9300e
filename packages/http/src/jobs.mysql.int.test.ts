import {
  defineJobsContract,
  defineJobsHandlerKindsContract,
  defineJobsPanicNoticeContract,
} from './jobs/jobs.contract.js';

defineJobsContract('MySql');
defineJobsHandlerKindsContract('MySql');
defineJobsPanicNoticeContract('MySql');
