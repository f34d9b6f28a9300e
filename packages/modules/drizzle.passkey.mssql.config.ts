/** drizzle-kit config for module Passkey's mssql table; `pnpm db:generate` writes versioned SQL to `migrations/passkey/mssql`. */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'mssql',
  schema: './src/passkey/tables/mssql.ts',
  out: './migrations/passkey/mssql',
  migrations: {
    table: 'sys_schema_version_passkey',
  },
  breakpoints: true,
  strict: true,
});
