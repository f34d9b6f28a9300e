/** drizzle-kit config for the shop's pg tables; `pnpm db:generate` writes versioned SQL to `migrations/pg`. */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/tables/pg.ts',
  out: './migrations/pg',
  migrations: {
    table: 'sys_schema_version_shop',
    schema: 'public',
  },
  breakpoints: true,
  strict: true,
});
