import { defineJobsContract } from './jobs/jobs.contract.js';

defineJobsContract('PostgreSQL');
