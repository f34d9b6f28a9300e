/** drizzle-kit config for module Passkey's mysql table; `pnpm db:generate` writes versioned SQL to `migrations/passkey/mysql`. */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'mysql',
  schema: './src/passkey/tables/mysql.ts',
  out: './migrations/passkey/mysql',
  migrations: {
    table: 'sys_schema_version_passkey',
  },
  breakpoints: true,
  strict: true,
});
