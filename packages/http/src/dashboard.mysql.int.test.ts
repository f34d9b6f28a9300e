import { defineDashboardContract } from './dashboard/dashboard.contract.js';

defineDashboardContract('MySql', 'Memory');
