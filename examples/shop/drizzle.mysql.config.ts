/** drizzle-kit config for the shop's mysql tables; `pnpm db:generate` writes versioned SQL to `migrations/mysql`. */
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'mysql',
  schema: './src/tables/mysql.ts',
  out: './migrations/mysql',
  migrations: {
    table: 'sys_schema_version_shop',
  },
  breakpoints: true,
  strict: true,
});
