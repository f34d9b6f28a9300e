import { defineDashboardContract } from './dashboard/dashboard.contract.js';

defineDashboardContract('PostgreSQL', 'Redis');
