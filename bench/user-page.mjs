#!/usr/bin/env node
// User-page benchmark (issue 5): per dialect, a fresh database is seeded with 10,000 users (batched inserts,
// one precomputed hash), GET /api/v1/sys/user/page is timed unfiltered and filtered through `app.request()`,
// then the table is grown to 100,000 users and timed again. Prints the mean and median per request and the
// 100k/10k ratio of each: a ratio near 1 means the cost stays flat as the table grows.
//
//   node bench/user-page.mjs [--dialects Sqlite,PostgreSQL,MySql] [--requests 200] [--small 10000] [--large 100000]
//
// Needs the built packages (`npx tsc -b packages/http`) and, for the server dialects, the databases the tests
// use (SVC_TEST_PG_URL, SVC_TEST_MYSQL_URL or their defaults). About a minute per dialect with the defaults.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { analyze, timePage } from './pages.mjs';

const testing = await import('../packages/http/dist/testing/index.js');
const { login } = await import('../packages/http/dist/testing/auth.js');
const { hashPassword } = await import('../packages/kernel/dist/index.js');

const { values: args } = parseArgs({
  options: {
    dialects: { type: 'string', default: 'Sqlite,PostgreSQL,MySql' },
    requests: { type: 'string', default: '200' },
    small: { type: 'string', default: '10000' },
    large: { type: 'string', default: '100000' },
  },
});
const REQUESTS = Number(args.requests);
const SMALL = Number(args.small);
const LARGE = Number(args.large);
/** Rows per INSERT: ~7 bound values each keeps every dialect far below its parameter limit. */
const BATCH = 1000;
/** Users are spread over this many organisations; the filtered query reads one of them. */
const ORGS = 50;
const WARMUP = 20;

const QUERIES = {
  unfiltered: () => '/api/v1/sys/user/page?size=20',
  'filtered (org + enabled)': (orgId) => `/api/v1/sys/user/page?size=20&orgId=${orgId}&enabled=true`,
};

async function seedUsers(database, from, to, orgIds, hash) {
  const { db, tables } = database;
  const at = new Date();
  for (let start = from; start < to; start += BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(to, start + BATCH); i++) {
      rows.push({
        account: `bench${String(i).padStart(7, '0')}`,
        realName: `Bench User ${i}`,
        password: hash,
        orgId: orgIds[i % orgIds.length],
        enabled: i % 10 !== 0,
        createTime: at,
      });
    }
    await db.insert(tables.sysUser).values(rows);
  }
}

async function runDialect(dbType) {
  const t = await testing.startTestServer({
    dbType,
    cache: 'Memory',
    env: { Service__Security__RateLimit__Enabled: 'false', Logging__LogLevel__Default: 'Warning' },
  });
  try {
    const { database } = t.server.database;
    const orgIds = [];
    for (let i = 0; i < ORGS; i++)
      orgIds.push(
        await database.adapter.insertReturningId(database.db, database.tables.sysOrg, {
          parentId: 1,
          name: `Bench org ${i}`,
          code: `bench-${i}`,
          createTime: new Date(),
        }),
      );
    const hash = await hashPassword('Bench#Pass2345', 100_000);
    const token = (await login(t, 'superAdmin', testing.TEST_ADMIN_PASSWORD)).accessToken;
    const results = {};
    let seeded = 0;
    for (const size of [SMALL, LARGE]) {
      const started = performance.now();
      await seedUsers(database, seeded, size, orgIds, hash);
      seeded = size;
      await analyze(database, 'sys_user');
      console.log(
        `  ${dbType}: ${size} users seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      for (const [name, path] of Object.entries(QUERIES)) {
        results[name] ??= {};
        results[name][size] = await timePage(t, token, path(orgIds[7]), {
          requests: REQUESTS,
          warmup: WARMUP,
        });
      }
    }
    return results;
  } finally {
    await t.close();
  }
}

const fmt = (ms) => `${(ms * 1000).toFixed(0).padStart(6)} µs`;
for (const dbType of args.dialects
  .split(',')
  .map((d) => d.trim())
  .filter(Boolean)) {
  console.log(`\n${dbType}: GET /api/v1/sys/user/page, ${REQUESTS} requests each after ${WARMUP} warm-up`);
  const results = await runDialect(dbType);
  for (const [name, bySize] of Object.entries(results)) {
    const small = bySize[SMALL];
    const large = bySize[LARGE];
    console.log(
      `  ${name.padEnd(30)} ${SMALL}: mean ${fmt(small.mean)} median ${fmt(small.median)} (total ${small.total})` +
        ` | ${LARGE}: mean ${fmt(large.mean)} median ${fmt(large.median)} (total ${large.total})` +
        ` | ratio ${(large.median / small.median).toFixed(2)}`,
    );
  }
}
