import { defineMetricsContract } from './observability/metrics.contract.js';

defineMetricsContract('Sqlite');
