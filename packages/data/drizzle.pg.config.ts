/** drizzle-kit config for the pg schema; `pnpm db:generate` writes versioned SQL to `migrations/pg`. */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/pg/schema.ts',
  out: './migrations/pg',
  migrations: {
    table: 'sys_schema_version',
    schema: 'public',
  },
  breakpoints: true,
  strict: true,
});
