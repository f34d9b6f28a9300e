import {
  defineJobsContract,
  defineJobsHandlerKindsContract,
  defineJobsPanicNoticeContract,
} from './modules/job/jobs.contract.js';

defineJobsContract('MySql');
defineJobsHandlerKindsContract('MySql');
defineJobsPanicNoticeContract('MySql');
