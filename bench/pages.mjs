// Shared by the page benchmarks (bench/user-page.mjs, bench/log-page.mjs): a page route timed in process through
// `app.request()`, and the statistics a table that grew in production would have.
import { performance } from 'node:perf_hooks';

/**
 * `requests` GETs of `path` after `warmup` of them, each checked for code 0; answers the mean and median time in
 * ms and the page's last `total`.
 */
export async function timePage(t, token, path, { requests, warmup }) {
  const headers = { authorization: `Bearer ${token}` };
  const once = async () => {
    const res = await t.server.app.request(path, { headers });
    const body = await res.json();
    if (body.code !== 0) throw new Error(`${path}: ${JSON.stringify(body)}`);
    return body.data.total;
  };
  for (let i = 0; i < warmup; i++) await once();
  const samples = [];
  let total = 0;
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    total = await once();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return { mean, median: samples[Math.floor(samples.length / 2)], total };
}

/**
 * Fresh statistics and (PostgreSQL) a visibility map for `table`, as autovacuum gives a table that grew in
 * production: the planners choose index-only scans for a count from them.
 */
export async function analyze({ adapter, db }, table) {
  const { sql } = await import('../packages/data/node_modules/drizzle-orm/index.js');
  const statement = {
    Sqlite: 'analyze',
    PostgreSQL: `vacuum analyze ${table}`,
    MySql: `analyze table ${table}`,
  }[adapter.dbType];
  if (!statement) return;
  if (typeof db.execute === 'function') await db.execute(sql.raw(statement));
  else db.run(sql.raw(statement));
}
