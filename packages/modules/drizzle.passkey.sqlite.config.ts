/** drizzle-kit config for module Passkey's sqlite table; `pnpm db:generate` writes versioned SQL to `migrations/passkey/sqlite`. */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/passkey/tables/sqlite.ts',
  out: './migrations/passkey/sqlite',
  migrations: {
    table: 'sys_schema_version_passkey',
  },
  breakpoints: true,
  strict: true,
});
