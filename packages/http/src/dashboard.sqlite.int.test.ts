import { defineDashboardContract } from './dashboard/dashboard.contract.js';

defineDashboardContract('Sqlite', 'Memory');
