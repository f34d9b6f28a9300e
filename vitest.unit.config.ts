import { defineConfig } from 'vitest/config';
import { exclude, resolve } from './vitest.shared.js';

/** Fast tests: no server databases, SQLite in memory at most. */
export default defineConfig({
  resolve,
  ssr: { resolve: { conditions: resolve.conditions, externalConditions: resolve.conditions } },
  test: {
    globalSetup: ['./vitest.tmpdir.ts'],
    include: [
      'packages/**/src/**/*.test.ts',
      'apps/**/src/**/*.test.ts',
      'examples/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    exclude: [...exclude, '**/*.int.test.ts'],
    typecheck: {
      enabled: true,
      include: ['packages/**/src/**/*.test-d.ts'],
      tsconfig: './tsconfig.test.json',
    },
  },
});
