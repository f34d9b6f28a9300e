#!/usr/bin/env node
// Live-user counter benchmark: what the sys_user triggers that keep `sys_counter` ('sys_user.live') exact cost
// a mass write in one transaction. Per dialect, size and variant, a fresh migrated database gets:
//   import       N users the way the Excel import commits them (UserRepository.importBatch: one transaction,
//                500 users an INSERT, then their password-history rows the same way);
//   bulk insert  N users in one transaction, 1,000 rows an INSERT (insertUsersInBulk);
//   soft delete  those 2N users through UserRepository.softDelete (one transaction, 500 ids an UPDATE);
//   restore      them in one UPDATE … SET is_delete = false (a DBA's SQL);
// then the counter is checked against COUNT(*). Variant `trigger` runs the schema as migrated, `none` with the
// triggers on sys_user dropped (the floor), `row` (PostgreSQL only) with the per-row trigger of the migration
// `user_counter` put back (before `user_counter_statement`). On PostgreSQL it also prints how many row versions
// of sys_counter the import, the bulk insert and the restore made (pg_stat_xact_user_tables): one a user with
// `row`. `--import-only` runs the import alone.
//
//   node bench/user-counter.mjs [--dialects Sqlite,PostgreSQL,MySql] [--sizes 10000,50000] [--variants trigger,none]
//   node bench/user-counter.mjs --import-only --variants trigger,none
//   node bench/user-counter.mjs --dialects PostgreSQL --variants row,trigger,none
//
// Needs the built packages (`npx tsc -b packages/data`) and, for the server dialects, the databases the tests
// use (SVC_TEST_PG_URL, SVC_TEST_MYSQL_URL or their defaults).
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const { createRepositories, migrateDatabase, migrationsPath, openDatabase } = await import(
  '../packages/data/dist/index.js'
);
const { createTestDatabase, insertUsersInBulk } = await import('../packages/data/dist/testing/index.js');
const { eq, sql } = await import('../packages/data/node_modules/drizzle-orm/index.js');

const { values: args } = parseArgs({
  options: {
    dialects: { type: 'string', default: 'Sqlite,PostgreSQL,MySql' },
    sizes: { type: 'string', default: '10000,50000' },
    variants: { type: 'string', default: 'trigger,none' },
    'import-only': { type: 'boolean', default: false },
  },
});
const list = (s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** Rows of a raw query, whatever the driver answers. */
async function rows({ adapter, db }, text) {
  if (adapter.dbType === 'Sqlite')
    return /^\s*select/i.test(text) ? db.all(sql.raw(text)) : db.run(sql.raw(text));
  const result = await db.execute(sql.raw(text));
  return adapter.dbType === 'MySql' ? result[0] : [...result];
}

/**
 * The per-row counter trigger of the migration `user_counter` (PostgreSQL), read from its SQL: what
 * `user_counter_statement` replaced, for the before/after comparison.
 */
function rowLevelTriggerSql() {
  const folder = migrationsPath('pg');
  const name = readdirSync(folder).find((n) => n.endsWith('_user_counter'));
  return readFileSync(join(folder, name, 'migration.sql'), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter((s) => /^create (function|trigger)/i.test(s))
    .map((s) => s.replace(/^create function/i, 'create or replace function'));
}

const TRIGGERS = {
  Sqlite: "select name from sqlite_master where type = 'trigger' and tbl_name = 'sys_user'",
  PostgreSQL:
    "select tgname as name from pg_trigger where tgrelid = 'sys_user'::regclass and not tgisinternal",
  MySql:
    "select trigger_name as name from information_schema.triggers where event_object_table = 'sys_user' and trigger_schema = database()",
};

async function dropTriggers(database) {
  for (const { name } of await rows(database, TRIGGERS[database.adapter.dbType])) {
    const on = database.adapter.dbType === 'PostgreSQL' ? ' on sys_user' : '';
    await rows(database, `drop trigger ${name}${on}`);
  }
}

/** Row versions of sys_counter this backend made and has not reported yet (PostgreSQL): the difference of two
 * readings in one transaction is what the statements between them made. */
async function counterUpdates(q) {
  const [row] = await rows(
    q,
    "select n_tup_upd::int as n from pg_stat_xact_user_tables where relname = 'sys_counter'",
  );
  return row?.n ?? 0;
}

/** Throws unless the counter equals COUNT(*) of live users (the triggers' variants). */
async function expectCounterExact(database, repos, variant) {
  const [{ n }] = await rows(database, 'select count(*) as n from sys_user where is_delete = false');
  const counter = await repos.users.countLive();
  if (variant !== 'none' && Number(n) !== counter) throw new Error(`counter ${counter}, COUNT ${n}`);
}

async function timed(fn) {
  const started = performance.now();
  const out = await fn();
  return { ms: performance.now() - started, out };
}

async function runOnce(dbType, size, variant) {
  const created = await createTestDatabase(dbType);
  // The pool's statement timeout (10 s by default) is raised so that a slow variant is measured, not cut.
  const database = await openDatabase({
    dbType,
    connectionString: created.connectionString,
    contentRoot: tmpdir(),
    commandTimeoutMs: 900_000,
  });
  try {
    await migrateDatabase(database);
    const { adapter, db, tables } = database;
    if (variant === 'none' || variant === 'row') await dropTriggers(database);
    if (variant === 'row') {
      if (dbType !== 'PostgreSQL') throw new Error('variant row: PostgreSQL only');
      for (const statement of rowLevelTriggerSql()) await rows(database, statement);
    }
    const repos = createRepositories(database);
    const pg = dbType === 'PostgreSQL';
    const at = new Date();
    const stamp = { userId: null, at };
    const result = {};
    const creates = Array.from({ length: size }, (_, i) => ({
      user: { account: `imp${i}`, realName: `Imported ${i}`, password: 'h', createTime: at },
      roleIds: [],
    }));
    const imported = await timed(() =>
      adapter.transaction(db, async (tx) => {
        const before = pg ? await counterUpdates({ adapter, db: tx }) : 0;
        const inner = createRepositories({ ...database, db: tx });
        const { createdIds } = await inner.users.importBatch({ creates, updates: [], stamp });
        return {
          createdIds,
          versions: pg ? (await counterUpdates({ adapter, db: tx })) - before : undefined,
        };
      }),
    );
    result.import = imported.ms;
    if (args['import-only']) {
      await expectCounterExact(database, repos, variant);
      return { result, note: pg ? ` (sys_counter versions: import ${imported.out.versions})` : '' };
    }
    const bulk = await timed(() =>
      adapter.transaction(db, async (tx) => {
        const before = pg ? await counterUpdates({ adapter, db: tx }) : 0;
        const ids = await insertUsersInBulk({ db: tx, tables }, { count: size, prefix: 'bulk' });
        return { ids, versions: pg ? (await counterUpdates({ adapter, db: tx })) - before : undefined };
      }),
    );
    result['bulk insert'] = bulk.ms;
    const ids = [...imported.out.createdIds, ...bulk.out.ids];
    const deleted = await timed(() => repos.users.softDelete(ids, stamp));
    if (deleted.out !== ids.length) throw new Error(`soft-deleted ${deleted.out} of ${ids.length}`);
    result['soft delete'] = deleted.ms;
    const restored = await timed(() =>
      adapter.transaction(db, async (tx) => {
        const before = pg ? await counterUpdates({ adapter, db: tx }) : 0;
        await tx.update(tables.sysUser).set({ isDelete: false }).where(eq(tables.sysUser.isDelete, true));
        return pg ? (await counterUpdates({ adapter, db: tx })) - before : undefined;
      }),
    );
    result.restore = restored.ms;
    await expectCounterExact(database, repos, variant);
    const versions = pg
      ? ` (sys_counter versions: import ${imported.out.versions}, bulk ${bulk.out.versions}, restore ${restored.out})`
      : '';
    return { result, note: versions };
  } finally {
    await database.close();
    await created.drop();
  }
}

const fmt = (ms) => `${(ms / 1000).toFixed(2).padStart(7)} s`;
for (const dbType of list(args.dialects)) {
  console.log(`\n${dbType}`);
  for (const size of list(args.sizes).map(Number)) {
    for (const variant of list(args.variants)) {
      const { result, note } = await runOnce(dbType, size, variant);
      const cells = Object.entries(result).map(([k, ms]) => `${k} ${fmt(ms)}`);
      console.log(`  ${String(size).padStart(6)} ${variant.padEnd(8)} ${cells.join(' | ')}${note}`);
    }
  }
}
