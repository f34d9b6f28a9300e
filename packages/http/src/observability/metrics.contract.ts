/**
 * Metrics and tracing contract (issue 12, Observability), written once and run by one thin file per dialect.
 * Requests go over real HTTP (node-server), the way production serves them; `/metrics` is scraped and its text
 * parsed strictly. Counts are awaited as conditions (a response's end is heard just after the client has it),
 * never with sleeps.
 */
import { createServer as createNetServer } from 'node:net';
import {
  type Context,
  context,
  propagation,
  type TextMapGetter,
  type TextMapSetter,
  TraceFlags,
  trace,
} from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { DbType } from '@svc/kernel';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ListeningServer, listen } from '../host/listen.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/index.js';

/** One sample: name, labels, value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * A strict parser of the Prometheus text format (0.0.4): every line is a comment (`# HELP`/`# TYPE`), blank, or
 * `name{label="value",...} number`; anything else fails the test.
 */
export function parsePrometheus(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const line = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?(?:[0-9.e+-]+|Inf|\+Inf|NaN))$/;
  const label = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;
  for (const raw of text.split('\n')) {
    if (raw === '') continue;
    if (raw.startsWith('# HELP ')) continue;
    if (raw.startsWith('# TYPE ')) {
      const [, , name, type] = raw.split(' ');
      if (!name || !type) throw new Error(`bad TYPE line: ${raw}`);
      types.set(name, type);
      continue;
    }
    const m = line.exec(raw);
    if (!m) throw new Error(`not a Prometheus sample line: ${raw}`);
    const labels: Record<string, string> = {};
    const body = m[2] ?? '';
    label.lastIndex = 0;
    let consumed = 0;
    for (let lm = label.exec(body); lm; lm = label.exec(body)) {
      labels[lm[1] as string] = (lm[2] as string).replace(/\\(.)/g, (_, ch: string) =>
        ch === 'n' ? '\n' : ch,
      );
      consumed = label.lastIndex;
    }
    if (consumed !== body.length) throw new Error(`bad labels: ${raw}`);
    samples.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return { samples, types };
}

/** The value of the one sample matching name and labels (0 when absent); throws when several match. */
function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${found.length} samples match ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

async function scrape(url: string): Promise<Sample[]> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheus(await res.text()).samples;
}

async function post(
  base: string,
  path: string,
  body: unknown,
): Promise<{ status: number; code: number; data: { accessToken?: string } | null }> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; data: { accessToken?: string } | null };
  return { status: res.status, code: json.code, data: json.data };
}

/** A port nobody listens on right now (bound then released by the OS). */
async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** A W3C trace-context propagator (the SDKs register one; the API package carries none). */
const w3c = {
  inject(ctx: Context, carrier: unknown, setter: TextMapSetter) {
    const sc = trace.getSpanContext(ctx);
    if (sc) setter.set(carrier, 'traceparent', `00-${sc.traceId}-${sc.spanId}-0${sc.traceFlags}`);
  },
  extract(ctx: Context, carrier: unknown, getter: TextMapGetter) {
    const value = getter.get(carrier, 'traceparent');
    const header = Array.isArray(value) ? value[0] : value;
    const m = header && /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(header);
    if (!m) return ctx;
    return trace.setSpanContext(ctx, {
      traceId: m[1] as string,
      spanId: m[2] as string,
      traceFlags: Number.parseInt(m[3] as string, 16),
      isRemote: true,
    });
  },
  fields: () => ['traceparent'],
};

export function defineMetricsContract(dbType: DbType, cache?: 'Memory' | 'Redis'): void {
  describe(`metrics and tracing (${dbType}${cache ? `, ${cache}` : ''})`, () => {
    const open: TestServer[] = [];
    const listening: ListeningServer[] = [];
    afterEach(async () => {
      trace.disable();
      propagation.disable();
      context.disable();
      for (const l of listening.splice(0)) await l.shutdown();
      for (const t of open.splice(0)) await t.close();
    });

    async function start(env: Record<string, string>): Promise<{ t: TestServer; l: ListeningServer }> {
      const t = await startTestServer({
        dbType,
        ...(cache ? { cache } : {}),
        env: {
          Service__Metrics__Enabled: 'true',
          Service__Security__RateLimit__WindowSeconds: '3600',
          ...env,
        },
      });
      open.push(t);
      const l = await listen(t.server, t.server.deps.logger, 'http://127.0.0.1:0');
      listening.push(l);
      return { t, l };
    }

    it('counts requests by route template and status, login outcomes, lockouts and rate-limit refusals', async () => {
      const { t, l } = await start({ Service__Security__RateLimit__AuthPermitPerWindow: '7' });
      const base = l.url;
      const login = (account: string, password: string) =>
        post(base, '/api/v1/auth/login', { account, password });
      const ok = await login('superAdmin', TEST_ADMIN_PASSWORD);
      expect(ok.code).toBe(0);
      // Five wrong passwords lock the account (the fifth answers 40004), the sixth is refused as locked.
      const wrong = [];
      for (let i = 0; i < 6; i++) wrong.push((await login('ghost', 'Wrong#Pass1234')).code);
      expect(wrong).toEqual([40001, 40001, 40001, 40001, 40004, 40004]);
      // The auth window allows 7: these two are refused by the rate limiter before the route runs.
      const limited = await Promise.all([login('ghost', 'x'), login('ghost', 'y')]);
      expect(limited.map((r) => r.status)).toEqual([429, 429]);
      // Two unknown paths, a page and two details by id.
      const auth = { authorization: `Bearer ${ok.data?.accessToken}` };
      // Through app.request (no Node response) the request is recorded after dispatch.
      expect((await t.request('/health')).status).toBe(200);
      expect((await fetch(`${base}/no/such/path/1`)).status).toBe(404);
      expect((await fetch(`${base}/no/such/path/2?x=1`)).status).toBe(404);
      expect((await fetch(`${base}/api/v1/no/such/3`)).status).toBe(404);
      // A concurrent burst is counted exactly.
      const burst = await Promise.all(Array.from({ length: 12 }, () => fetch(`${base}/health`)));
      expect(burst.map((r) => r.status)).toEqual(Array(12).fill(200));
      expect(
        (await fetch(`${base}/api/v1/sys/user/page?pageIndex=1&pageSize=5`, { headers: auth })).status,
      ).toBe(200);
      for (const id of [1, 987654]) {
        expect((await fetch(`${base}/api/v1/sys/user/${id}`, { headers: auth })).status).toBe(200);
      }

      const route = (r: string, status: string, method = 'GET') => ({ method, route: r, status });
      await vi.waitFor(async () => {
        const s = await scrape(`${base}/metrics`);
        expect(sampleValue(s, 'svc_http_requests_total', route('/api/v1/auth/login', '200', 'POST'))).toBe(7);
        expect(sampleValue(s, 'svc_http_requests_total', route('/api/v1/auth/login', '429', 'POST'))).toBe(2);
        expect(sampleValue(s, 'svc_http_requests_total', route('unmatched', '404'))).toBe(3);
        expect(sampleValue(s, 'svc_http_requests_total', route('/api/v1/sys/user/page', '200'))).toBe(1);
        expect(sampleValue(s, 'svc_http_requests_total', route('/api/v1/sys/user/{id}', '200'))).toBe(2);
        expect(sampleValue(s, 'svc_http_requests_total', route('/health', '200'))).toBe(13);
        // The histogram counts the same requests.
        expect(
          sampleValue(s, 'svc_http_request_duration_seconds_count', route('/api/v1/sys/user/{id}', '200')),
        ).toBe(2);
        expect(
          sampleValue(s, 'svc_http_request_duration_seconds_bucket', {
            ...route('unmatched', '404'),
            le: '+Inf',
          }),
        ).toBe(3);
      });
      const s = await scrape(`${base}/metrics`);
      // Bounded cardinality: no raw URL, id or query string ever becomes a label.
      const routes = new Set(
        s.filter((x) => x.name === 'svc_http_requests_total').map((x) => x.labels.route),
      );
      for (const r of routes) expect(r).not.toMatch(/\/no\/such|987654|\/1$|\?/);
      // 7 login-log rows: 1 right, 4 wrong, 2 locked; the rate-limit refusals write none.
      expect(sampleValue(s, 'svc_login_outcomes_total', { code: '0' })).toBe(1);
      expect(sampleValue(s, 'svc_login_outcomes_total', { code: '40001' })).toBe(4);
      expect(sampleValue(s, 'svc_login_outcomes_total', { code: '40004' })).toBe(2);
      expect(sampleValue(s, 'svc_login_lockouts_total')).toBe(1);
      expect(sampleValue(s, 'svc_rate_limit_refusals_total')).toBe(2);
      expect(t.server.deps.security.rateLimiter.stats().refused).toBe(2);
    });

    it('reports pool, cache and audit-queue gauges at scrape time', async () => {
      const { t, l } = await start({});
      expect((await fetch(`${l.url}/health/ready`)).status).toBe(200);
      const s = await scrape(`${l.url}/metrics`);
      const pool = t.server.database.database.poolStats();
      expect(sampleValue(s, 'svc_db_pool_connections', { state: 'max' })).toBe(pool.max);
      expect(pool.max).toBe(dbType === 'Sqlite' ? 1 : t.server.config.service.Database.PoolSize);
      if (dbType !== 'PostgreSQL') {
        // The pool answered the migrations and the seed: at least one connection is open.
        expect(sampleValue(s, 'svc_db_pool_connections', { state: 'open' })).toBeGreaterThanOrEqual(1);
        expect(sampleValue(s, 'svc_db_pool_connections', { state: 'waiting' })).toBe(0);
      }
      if (cache) expect(t.server.cache.provider).toBe(cache);
      expect(sampleValue(s, 'svc_cache_up', { provider: t.server.cache.provider })).toBe(1);
      if (t.server.cache.provider === 'Redis') {
        // The Redis provider's fallback state: Healthy while Redis answers.
        expect(sampleValue(s, 'svc_cache_state', { state: 'Healthy' })).toBe(1);
        expect(sampleValue(s, 'svc_cache_state', { state: 'Degraded' })).toBe(0);
      }
      const opLog = t.server.logWriters.opLog.stats();
      expect(sampleValue(s, 'svc_op_log_queue_depth')).toBe(opLog.queued);
      expect(sampleValue(s, 'svc_op_log_spilled_rows')).toBe(opLog.spilled);
      expect(s.some((x) => x.name === 'svc_login_log_queue_depth')).toBe(true);
      // Gauges are read at scrape time: a cache read between two scrapes shows in the second.
      await t.server.cache.get('metrics-probe-absent');
      await t.server.cache.set('metrics-probe', 1);
      await t.server.cache.get('metrics-probe');
      await t.server.cache.get('metrics-probe');
      const again = await scrape(`${l.url}/metrics`);
      const read = (samples: typeof s, result: string) =>
        sampleValue(samples, 'svc_cache_reads_total', { result });
      expect(read(again, 'miss') - read(s, 'miss')).toBe(1);
      expect(read(again, 'hit') - read(s, 'hit')).toBe(2);
    });

    it('is off by default, outside /api/v1 and absent from the OpenAPI document', async () => {
      const t = await startTestServer({ dbType });
      open.push(t);
      expect(t.server.metrics).toBeUndefined();
      expect((await t.request('/metrics')).status).toBe(404);
      const on = await startTestServer({ dbType, env: { Service__Metrics__Enabled: 'true' } });
      open.push(on);
      expect((await on.request('/api/v1/metrics')).status).toBe(404);
      const doc = (await (await on.request('/openapi/v1.json')).json()) as { paths: Record<string, unknown> };
      expect(Object.keys(doc.paths).length).toBeGreaterThan(10);
      expect(Object.keys(doc.paths).filter((p) => p.includes('metrics'))).toEqual([]);
      expect((await on.request('/metrics')).status).toBe(200);
    });

    it('serves a separate port when configured, and each server keeps its own registry', async () => {
      const port = await freePort();
      const { l } = await start({ Service__Metrics__Port: String(port) });
      expect(l.metricsUrl).toBe(`http://127.0.0.1:${port}`);
      expect((await fetch(`${l.url}/metrics`)).status).toBe(404);
      expect((await fetch(`${l.metricsUrl}/other`)).status).toBe(404);
      expect((await fetch(`${l.url}/health`)).status).toBe(200);
      // A second server in the same process on the main listener.
      const other = await start({});
      await vi.waitFor(async () => {
        const s = await scrape(`${l.metricsUrl}/metrics`);
        expect(sampleValue(s, 'svc_http_requests_total', { route: '/health', status: '200' })).toBe(1);
        expect(sampleValue(s, 'svc_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
      });
      const s2 = await scrape(`${other.l.url}/metrics`);
      expect(sampleValue(s2, 'svc_http_requests_total', { route: '/health', status: '200' })).toBe(0);
      // The port closes with the service.
      await l.shutdown();
      listening.splice(listening.indexOf(l), 1);
      await expect(fetch(`${l.metricsUrl}/metrics`)).rejects.toThrow();
    });

    it('traces each request through @opentelemetry/api: template names, traceparent continued as X-Trace-Id', async () => {
      const { t, l } = await start({});
      // Without an SDK the API is a no-op: an incoming traceparent is not trusted.
      const incoming = '0af7651916cd43dd8448eb211c80319c';
      const parentSpan = 'b7ad6b7169203331';
      const traceparent = `00-${incoming}-${parentSpan}-01`;
      const before = await fetch(`${l.url}/health`, { headers: { traceparent } });
      expect(before.headers.get('x-trace-id')).toMatch(/^[0-9a-f]{32}$/);
      expect(before.headers.get('x-trace-id')).not.toBe(incoming);

      const exporter = new InMemorySpanExporter();
      trace.setGlobalTracerProvider(
        new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
      );
      propagation.setGlobalPropagator(w3c);
      const login = await post(l.url, '/api/v1/auth/login', {
        account: 'superAdmin',
        password: TEST_ADMIN_PASSWORD,
      });
      expect(login.code).toBe(0);
      const continued = await fetch(`${l.url}/api/v1/sys/user/42`, { headers: { traceparent } });
      expect(continued.headers.get('x-trace-id')).toBe(incoming);
      const fresh = await fetch(`${l.url}/no/such/thing`);
      expect(fresh.status).toBe(404);
      // Through app.request (no Node response) too.
      const viaApp = await t.request('/api/v1/sys/user/7', { headers: { traceparent } });
      expect(viaApp.headers.get('x-trace-id')).toBe(incoming);

      await vi.waitFor(() => expect(exporter.getFinishedSpans()).toHaveLength(4));
      const spans = exporter.getFinishedSpans();
      expect(spans.map((s) => s.name)).toEqual([
        'POST /api/v1/auth/login',
        'GET /api/v1/sys/user/{id}',
        'GET unmatched',
        'GET /api/v1/sys/user/{id}',
      ]);
      const detail = spans[1];
      expect(detail?.spanContext().traceId).toBe(incoming);
      expect(detail?.parentSpanContext?.spanId).toBe(parentSpan);
      expect(detail?.attributes['http.route']).toBe('/api/v1/sys/user/{id}');
      expect(detail?.attributes['http.request.method']).toBe('GET');
      // Unauthenticated: 401, still named by the template.
      expect(detail?.attributes['http.response.status_code']).toBe(401);
      expect(detail?.attributes['url.path']).toBe('/api/v1/sys/user/42');
      // Without traceparent the span starts a trace, and its id is the X-Trace-Id.
      expect(spans[2]?.spanContext().traceId).toBe(fresh.headers.get('x-trace-id'));
      expect(spans[2]?.parentSpanContext).toBeUndefined();
      expect(spans[2]?.spanContext().traceFlags).toBe(TraceFlags.SAMPLED);
      // The login's log row carries the login span's trace id (logs and traces join).
      const rows = await t.server.database.repos.loginLogs.page({ current: 1, size: 10 });
      expect(rows.items.map((r) => r.traceId)).toEqual([spans[0]?.spanContext().traceId]);
    });
  });
}
