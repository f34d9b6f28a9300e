import { defineDashboardContract } from './modules/dashboard/dashboard.contract.js';

defineDashboardContract('PostgreSQL', 'Redis');
