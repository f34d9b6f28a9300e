import { defineDashboardContract } from './modules/dashboard/dashboard.contract.js';

defineDashboardContract('MySql', 'Memory');
