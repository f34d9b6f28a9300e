/** drizzle-kit config for the shop's sqlite tables; `pnpm db:generate` writes versioned SQL to `migrations/sqlite`. */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'sqlite',
  schema: './src/tables/sqlite.ts',
  out: './migrations/sqlite',
  migrations: {
    table: 'sys_schema_version_shop',
  },
  breakpoints: true,
  strict: true,
});
