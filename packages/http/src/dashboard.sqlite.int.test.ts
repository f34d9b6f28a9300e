import { defineDashboardContract } from './modules/dashboard/dashboard.contract.js';

defineDashboardContract('Sqlite', 'Memory');
