/** drizzle-kit config for the sqlite schema; `pnpm db:generate` writes versioned SQL to `migrations/sqlite`. */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/sqlite/schema.ts',
  out: './migrations/sqlite',
  migrations: {
    table: 'sys_schema_version',
  },
  breakpoints: true,
  strict: true,
});
