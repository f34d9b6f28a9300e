// Memory of a streamed export (issue 14): the built host exports 1,000, 10,000 and 100,000 users, and the peak
// RSS growth over the idle process is compared. A streamed export holds one page of rows and the zip window, so
// the growth must stay about flat (ratio near 1) while the rows grow a hundredfold; a buffered one would grow
// with the rows. Users are created through the import commit (10,000 per request). RSS is read from /proc
// (Linux); the heap of another process is not visible from here, so the host runs with its old-generation heap
// capped (HEAP_CAP_MB, default 96): V8 then collects garbage early, RSS tracks live memory, and a buffered export
// of 100,000 rows could not finish at all.
//   npx tsc -b apps/host && node bench/export.mjs
import { readFileSync } from 'node:fs';
import { PASSWORD, requireBuiltHost, startHost } from './host.mjs';

requireBuiltHost();
const HEAP_CAP_MB = Number(process.env.HEAP_CAP_MB ?? 96);
const host = await startHost({
  NODE_OPTIONS: `--max-old-space-size=${HEAP_CAP_MB}`,
  Service__Import__ExportMaxRows: '200000',
  Service__Security__DefaultInitialPassword: 'Bench-Initial-Pass-1',
  Service__Logging__OpLog__Enabled: 'false',
});

const rssOf = (pid) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

async function call(path, init = {}) {
  const res = await fetch(`${host.url}${path}`, init);
  return res;
}

const login = await (
  await call('/api/v1/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ account: 'superAdmin', password: PASSWORD }),
  })
).json();
const auth = { authorization: `Bearer ${login.data.accessToken}` };

async function importUsers(from, count) {
  for (let start = from; start < from + count; start += 10_000) {
    const n = Math.min(10_000, from + count - start);
    const rows = Array.from({ length: n }, (_, i) => ({
      index: i + 1,
      cells: {
        account: `bench${start + i}`,
        realName: `Bench user ${start + i}`,
        orgCode: 'root',
        email: `bench${start + i}@example.com`,
        remark: '=not a formula',
      },
    }));
    const res = await (
      await call('/api/v1/sys/user/import/commit', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ rows, strategy: 0 }),
      })
    ).json();
    if (res.code !== 0 || res.data.inserted !== n)
      throw new Error(`import failed: ${JSON.stringify(res).slice(0, 300)}`);
  }
}

/** Exports every user, sampling the host's RSS every 10 ms; answers the peak growth and the bytes read. */
async function exportPeak() {
  global.gc?.();
  await new Promise((r) => setTimeout(r, 500));
  const idle = rssOf(host.child.pid);
  let peak = idle;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(host.child.pid));
  }, 10);
  const res = await call('/api/v1/sys/user/export?columns=id,account,realName,email,remark', {
    headers: auth,
  });
  let bytes = 0;
  for await (const chunk of res.body) bytes += chunk.byteLength;
  clearInterval(sampler);
  peak = Math.max(peak, rssOf(host.child.pid));
  return { idle, growth: peak - idle, bytes };
}

const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const report = (label, r) =>
  console.log(`${label}: file ${mb(r.bytes)}, RSS idle ${mb(r.idle)}, peak growth ${mb(r.growth)}`);
await importUsers(0, 1_000);
await exportPeak(); // warm-up: code paths, pools
const small = await exportPeak();
await importUsers(1_000, 9_000);
const mid = await exportPeak();
await importUsers(10_000, 90_000);
const large = await exportPeak();
report('1k rows  ', small);
report('10k rows ', mid);
report('100k rows', large);
// The young generation (two semi-spaces) fills with garbage once an export allocates more than it holds, so the
// growth of a 1k export is below that floor; 10k -> 100k is the comparison that shows whether rows accumulate.
const ratio = large.growth / Math.max(mid.growth, 1024 * 1024);
console.log(`RSS growth ratio 100k/10k: ${ratio.toFixed(2)} (rows x10, heap capped at ${HEAP_CAP_MB} MB)`);
host.child.kill('SIGTERM');
await host.exited;
process.exit(0);
