import { defineAuthContract } from './security/auth.contract.js';
import { defineProtectionContract } from './security/protection.contract.js';

// SQLite with the shared cache: the cache-backed rules (lockout, rate limits, session copies) on Redis.
defineAuthContract('Sqlite', 'Redis');
defineProtectionContract('Sqlite', 'Redis');
