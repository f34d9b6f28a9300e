import { defineJobsContract, defineJobsHandlerKindsContract } from './jobs/jobs.contract.js';

defineJobsContract('MySql');
defineJobsHandlerKindsContract('MySql');
