import { defineMetricsContract } from './observability/metrics.contract.js';

// The PostgreSQL runner shares the cache through Redis (the cache-state gauge reads Redis).
defineMetricsContract('PostgreSQL', 'Redis');
