import { defineJobsContract, defineJobsHandlerKindsContract } from './jobs/jobs.contract.js';

defineJobsContract('PostgreSQL');
defineJobsHandlerKindsContract('PostgreSQL');
