/** drizzle-kit config for the shop's mssql tables; `pnpm db:generate` writes versioned SQL to `migrations/mssql`. */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'mssql',
  schema: './src/tables/mssql.ts',
  out: './migrations/mssql',
  migrations: {
    table: 'sys_schema_version_shop',
    schema: 'dbo',
  },
  breakpoints: true,
  strict: true,
});
