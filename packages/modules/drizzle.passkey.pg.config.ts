/** drizzle-kit config for module Passkey's pg table; `pnpm db:generate` writes versioned SQL to `migrations/passkey/pg`. */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/passkey/tables/pg.ts',
  out: './migrations/passkey/pg',
  migrations: {
    table: 'sys_schema_version_passkey',
  },
  breakpoints: true,
  strict: true,
});
