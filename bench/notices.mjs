#!/usr/bin/env node
// Notices benchmark (issue 13): per dialect, a fresh database gets 10,000 users and 100 notices (60 to all, 30 to
// a role holding every 10th user, 10 to 50 named users each), every 10th user having read 20 of them; then the
// unread count and the first inbox page of one user are timed through `app.request()`. The users grow to 100,000
// (with the receiver and read rows they would have had) and the same is timed again. Prints mean and median
// and the 100k/10k ratio: near 1 means the cost does not grow with the number of users.
//
//   node bench/notices.mjs [--dialects Sqlite,PostgreSQL] [--requests 200] [--small 10000] [--large 100000]
//                          [--keep /tmp/notices.db]   (SQLite: keep the database file for EXPLAIN QUERY PLAN)
//
// Needs the built packages (`npx tsc -b packages/http`) and, for PostgreSQL, the database the tests use
// (SVC_TEST_PG_URL or its default). Not part of CI.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const testing = await import('../packages/http/dist/testing/index.js');
const { login } = await import('../packages/http/dist/testing/auth.js');
const { hashPassword } = await import('../packages/kernel/dist/index.js');

const { values: args } = parseArgs({
  options: {
    dialects: { type: 'string', default: 'Sqlite' },
    requests: { type: 'string', default: '200' },
    small: { type: 'string', default: '10000' },
    large: { type: 'string', default: '100000' },
    keep: { type: 'string' },
  },
});
const REQUESTS = Number(args.requests);
const SMALL = Number(args.small);
const LARGE = Number(args.large);
const BATCH = 1000;
const WARMUP = 20;
const PASSWORD = 'Bench#Pass2345';
const NOTICES = { all: 60, role: 30, users: 10 };
const USERS_PER_USER_NOTICE = 50;
const READS_PER_READER = 20;

const QUERIES = {
  'unread-count': '/api/v1/sys/notice/unread-count',
  'mine page': '/api/v1/sys/notice/mine?size=20',
};

async function insertBatches(db, table, rows) {
  for (let i = 0; i < rows.length; i += BATCH) await db.insert(table).values(rows.slice(i, i + BATCH));
}

/** Users [from, to) with their role link (every 10th) and read rows (every 10th, the first notices). */
async function seedUsers(database, from, to, hash, roleId, notices) {
  const { db, tables } = database;
  const at = new Date();
  const ids = [];
  for (let start = from; start < to; start += BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(to, start + BATCH); i++)
      rows.push({
        account: `bench${String(i).padStart(7, '0')}`,
        realName: `Bench ${i}`,
        password: hash,
        createTime: at,
      });
    await db.insert(tables.sysUser).values(rows);
  }
  const created = await db
    .select({ id: tables.sysUser.id, account: tables.sysUser.account })
    .from(tables.sysUser);
  for (const row of created) {
    const n = Number(row.account.slice(5));
    if (row.account.startsWith('bench') && n >= from && n < to) ids.push([n, row.id]);
  }
  const links = [];
  const receivers = [];
  const reads = [];
  for (const [n, id] of ids) {
    if (n % 10 === 0) {
      links.push({ userId: id, roleId });
      for (const notice of notices.role) receivers.push({ noticeId: notice, receiverId: id });
      for (const notice of notices.all.slice(0, READS_PER_READER))
        reads.push({ noticeId: notice, userId: id, readTime: at });
    }
  }
  await insertBatches(db, tables.sysUserRole, links);
  await insertBatches(db, tables.sysNoticeReceiver, receivers);
  await insertBatches(db, tables.sysNoticeRead, reads);
  return ids;
}

async function seedNotices(database, firstUserIds) {
  const { db, adapter, tables } = database;
  const at = new Date();
  const out = { all: [], role: [], users: [] };
  for (const [kind, count] of Object.entries(NOTICES)) {
    for (let i = 0; i < count; i++) {
      const id = await adapter.insertReturningId(db, tables.sysNotice, {
        title: `Bench ${kind} ${i}`,
        content: 'x'.repeat(200),
        type: 1,
        receiverType: kind === 'all' ? 0 : kind === 'role' ? 1 : 2,
        publishTime: new Date(at.getTime() + out[kind].length * 1000),
        createTime: at,
      });
      out[kind].push(id);
      if (kind === 'users') {
        const rows = firstUserIds
          .slice(i * USERS_PER_USER_NOTICE, (i + 1) * USERS_PER_USER_NOTICE)
          .map((receiverId) => ({ noticeId: id, receiverId }));
        await insertBatches(db, tables.sysNoticeReceiver, rows);
      }
    }
  }
  return out;
}

async function time(t, token, path) {
  const headers = { authorization: `Bearer ${token}` };
  const once = async () => {
    const res = await t.server.app.request(path, { headers });
    const body = await res.json();
    if (body.code !== 0) throw new Error(`${path}: ${JSON.stringify(body)}`);
    return typeof body.data === 'number' ? body.data : body.data.total;
  };
  for (let i = 0; i < WARMUP; i++) await once();
  const samples = [];
  let value = 0;
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    value = await once();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return {
    mean: samples.reduce((a, b) => a + b, 0) / samples.length,
    median: samples[samples.length >> 1],
    value,
  };
}

async function analyze({ adapter, db }) {
  const { sql } = await import('../packages/data/node_modules/drizzle-orm/index.js');
  const statement = {
    Sqlite: 'analyze',
    PostgreSQL: 'vacuum analyze',
    MySql: 'analyze table sys_notice_receiver, sys_notice_read, sys_notice',
  }[adapter.dbType];
  if (!statement) return;
  if (typeof db.execute === 'function') await db.execute(sql.raw(statement));
  else db.run(sql.raw(statement));
}

async function runDialect(dbType) {
  // `--keep <file>` (SQLite): build the database in that file and leave it there (for EXPLAIN QUERY PLAN).
  const reuse =
    dbType === 'Sqlite' && args.keep
      ? {
          database: { dbType, connectionString: `Data Source=${args.keep}`, drop: async () => {} },
          contentRoot: mkdtempSync(join(tmpdir(), 'svc-bench-notices-')),
        }
      : undefined;
  const t = await testing.startTestServer({
    dbType,
    ...(reuse ? { reuse } : {}),
    cache: 'Memory',
    env: { Service__Security__RateLimit__Enabled: 'false', Logging__LogLevel__Default: 'Warning' },
  });
  try {
    const { database } = t.server.database;
    const hash = await hashPassword(PASSWORD, 100_000);
    const roleId = await database.adapter.insertReturningId(database.db, database.tables.sysRole, {
      name: 'Bench readers',
      code: 'bench_readers',
    });
    const results = {};
    let notices;
    let token;
    let seeded = 0;
    for (const size of [SMALL, LARGE]) {
      const started = performance.now();
      if (!notices) {
        // The notices come first so the users' role and read rows can point at them; user-targeted notices go
        // to the first users (created just below with a throw-away pass).
        notices = await seedNotices(database, []);
      }
      const ids = await seedUsers(database, seeded, size, hash, roleId, notices);
      if (seeded === 0) {
        const rows = [];
        notices.users.forEach((noticeId, i) => {
          for (const [, id] of ids.slice(i * USERS_PER_USER_NOTICE, (i + 1) * USERS_PER_USER_NOTICE))
            rows.push({ noticeId, receiverId: id });
        });
        await insertBatches(database.db, database.tables.sysNoticeReceiver, rows);
        token = (await login(t, 'bench0000000', PASSWORD)).accessToken;
      }
      seeded = size;
      await analyze(database);
      console.log(
        `  ${dbType}: ${size} users seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      for (const [name, path] of Object.entries(QUERIES)) {
        results[name] ??= {};
        results[name][size] = await time(t, token, path);
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
  console.log(`\n${dbType}: notices of one user, ${REQUESTS} requests each after ${WARMUP} warm-up`);
  const results = await runDialect(dbType);
  for (const [name, bySize] of Object.entries(results)) {
    const small = bySize[SMALL];
    const large = bySize[LARGE];
    console.log(
      `  ${name.padEnd(14)} ${SMALL}: mean ${fmt(small.mean)} median ${fmt(small.median)} (value ${small.value})` +
        ` | ${LARGE}: mean ${fmt(large.mean)} median ${fmt(large.median)} (value ${large.value})` +
        ` | ratio ${(large.median / small.median).toFixed(2)}`,
    );
  }
}
