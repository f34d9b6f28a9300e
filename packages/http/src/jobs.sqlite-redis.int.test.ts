// The single-instance contract again with the BullMQ engine (Redis cache): both engines meet the same contract.
import { defineJobsContract } from './modules/job/jobs.contract.js';

defineJobsContract('Sqlite', 'Redis');
