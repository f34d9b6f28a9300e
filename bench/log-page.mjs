#!/usr/bin/env node
// Log-page benchmark: per dialect, a fresh database's operation log is filled with 10,000 rows (the repository's
// batched appends), GET /api/v1/sys/log/op/page is timed unfiltered and filtered through `app.request()`, then
// the log is grown to `--large` rows and timed again. Prints the mean and median per request and the large/small
// ratio of each: near 1, the page stays flat as the log grows. The unfiltered page answers its total from the id
// span from 100,000 rows on (paging.ts idSpanTotal); a filtered page still counts the rows it matches.
//
//   node bench/log-page.mjs [--dialects Sqlite,PostgreSQL,MySql] [--requests 100] [--small 10000] [--large 1000000]
//
// Needs the built packages (`npx tsc -b packages/http`) and, for the server dialects, the databases the tests
// use (SVC_TEST_PG_URL, SVC_TEST_MYSQL_URL or their defaults). A few minutes per dialect with the defaults.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { analyze, timePage } from './pages.mjs';

const testing = await import('../packages/http/dist/testing/index.js');
const { login } = await import('../packages/http/dist/testing/auth.js');

const { values: args } = parseArgs({
  options: {
    dialects: { type: 'string', default: 'Sqlite,PostgreSQL,MySql' },
    requests: { type: 'string', default: '100' },
    small: { type: 'string', default: '10000' },
    large: { type: 'string', default: '1000000' },
  },
});
const REQUESTS = Number(args.requests);
const SMALL = Number(args.small);
const LARGE = Number(args.large);
const BATCH = 2000;
const WARMUP = 10;

const QUERIES = {
  unfiltered: '/api/v1/sys/log/op/page?size=20',
  'failed only': '/api/v1/sys/log/op/page?size=20&success=false',
};

async function fill(repos, from, to) {
  const at = Date.now();
  for (let start = from; start < to; start += BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(to, start + BATCH); i++) {
      rows.push({
        title: 'Update position',
        httpMethod: 'PUT',
        path: `/api/v1/sys/position/${i % 500}`,
        paramJson: `{"body":{"name":"Position ${i}","code":"p${i}","sort":${i % 10}}}`,
        resultCode: i % 50 ? 0 : 42001,
        success: i % 50 !== 0,
        elapsedMs: 3,
        operatorId: 1,
        operatorName: 'superAdmin',
        ip: '127.0.0.1',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) bench',
        traceId: `bench-${i}`,
        createTime: new Date(at - (LARGE - i) * 1000),
      });
    }
    await repos.opLogs.insertMany(rows);
  }
}

async function runDialect(dbType) {
  const t = await testing.startTestServer({
    dbType,
    cache: 'Memory',
    env: {
      Service__Security__RateLimit__Enabled: 'false',
      Service__Logging__OpLog__Enabled: 'false',
      Logging__LogLevel__Default: 'Warning',
    },
  });
  try {
    const { database, repos } = t.server.database;
    const token = (await login(t, 'superAdmin', testing.TEST_ADMIN_PASSWORD)).accessToken;
    await repos.opLogs.deleteAll();
    const results = {};
    let filled = 0;
    for (const size of [SMALL, LARGE]) {
      const started = performance.now();
      await fill(repos, filled, size);
      filled = size;
      await analyze(database, 'sys_op_log');
      console.log(`  ${dbType}: ${size} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      for (const [name, path] of Object.entries(QUERIES)) {
        results[name] ??= {};
        results[name][size] = await timePage(t, token, path, { requests: REQUESTS, warmup: WARMUP });
      }
    }
    return results;
  } finally {
    await t.close();
  }
}

const fmt = (ms) => `${(ms * 1000).toFixed(0).padStart(7)} µs`;
for (const dbType of args.dialects
  .split(',')
  .map((d) => d.trim())
  .filter(Boolean)) {
  console.log(`\n${dbType}: GET /api/v1/sys/log/op/page, ${REQUESTS} requests each after ${WARMUP} warm-up`);
  const results = await runDialect(dbType);
  for (const [name, bySize] of Object.entries(results)) {
    const small = bySize[SMALL];
    const large = bySize[LARGE];
    console.log(
      `  ${name.padEnd(14)} ${SMALL}: median ${fmt(small.median)} (total ${small.total})` +
        ` | ${LARGE}: median ${fmt(large.median)} (total ${large.total})` +
        ` | ratio ${(large.median / small.median).toFixed(2)}`,
    );
  }
}
