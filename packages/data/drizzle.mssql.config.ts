/** drizzle-kit config for the mssql schema; `pnpm db:generate` writes versioned SQL to `migrations/mssql`. */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'mssql',
  schema: './src/mssql/schema.ts',
  out: './migrations/mssql',
  migrations: {
    table: 'sys_schema_version',
    schema: 'dbo',
  },
  breakpoints: true,
  strict: true,
});
