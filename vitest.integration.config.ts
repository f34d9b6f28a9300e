import { defineConfig } from 'vitest/config';
import { exclude, resolve } from './vitest.shared.js';

/**
 * Integration tests: the dialect matrix (SQLite, PostgreSQL, MariaDB) and Redis. Each test file makes its own
 * database, so files may run in parallel; two workers fit the 2-core machines.
 */
export default defineConfig({
  resolve,
  ssr: { resolve: { conditions: resolve.conditions, externalConditions: resolve.conditions } },
  test: {
    globalSetup: ['./vitest.tmpdir.ts'],
    include: [
      'packages/**/src/**/*.int.test.ts',
      'apps/**/src/**/*.int.test.ts',
      'examples/**/*.int.test.ts',
    ],
    exclude,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
