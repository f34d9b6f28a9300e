/** drizzle-kit config for the mysql schema; `pnpm db:generate` writes versioned SQL to `migrations/mysql`. */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'mysql',
  schema: './src/mysql/schema.ts',
  out: './migrations/mysql',
  migrations: {
    table: 'sys_schema_version',
  },
  breakpoints: true,
  strict: true,
});
