import { defineJobsContract, defineJobsKillSwitchContract } from './jobs/jobs.contract.js';

defineJobsContract('Sqlite');
defineJobsKillSwitchContract('Sqlite');
