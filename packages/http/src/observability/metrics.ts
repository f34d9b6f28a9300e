/**
 * Prometheus metrics (issue 12, `Service:Metrics:*`). One prom-client `Registry` per server, never the global
 * default one, so two servers in one process keep their own series. Counters and the latency histogram are
 * updated at the event; gauges (queues, spill files, pool, cache state) are read lazily at scrape time through
 * `collect()`, so they cost nothing between scrapes.
 *
 * Route labels are route TEMPLATES (`/api/v1/sys/user/{id}`), never the raw URL: cardinality stays bounded by
 * the route table; a request no route matched is labelled {@link UNMATCHED_ROUTE}.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The route label of a request no registered route matched (404s, probes of random paths). */
export const UNMATCHED_ROUTE = 'unmatched';

/** Prometheus' text exposition format, version 0.0.4. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** A gauge read at scrape time: one number, or one number per value of `label`. */
export interface GaugeSource {
  name: string;
  help: string;
  /** Label name when `read` answers a record (e.g. `state`). */
  label?: string;
  /** `counter` for a running total kept by the source (typed as a counter for `rate()`). @default 'gauge' */
  kind?: 'gauge' | 'counter';
  /** Undefined: not known at this scrape (a gauge shows NaN, a counter keeps its last total). */
  read(): GaugeValue | undefined | Promise<GaugeValue | undefined>;
}

/** One number, or one number per label value (undefined: not known, left out). */
export type GaugeValue = number | Readonly<Record<string, number | undefined>>;

export interface ServiceMetrics {
  readonly registry: Registry;
  /** One finished HTTP request. */
  request(method: string, route: string, status: number, seconds: number): void;
  /** One login-log outcome (the row's result code; 0 is success). */
  loginOutcome(resultCode: number): void;
  /** One account lock (a wrong password that reached the lock threshold). */
  lockout(): void;
  /** One cache read. */
  cacheRead(hit: boolean): void;
  /**
   * Adds a gauge read at scrape time. This is how the sources plug in: audit-writer stats, the pool, the cache
   * state (a Redis fallback with its own health state registers `svc_cache_state` here).
   */
  addGauge(source: GaugeSource): void;
  /** The text exposition of every series. */
  render(): Promise<string>;
}

/** Latency buckets in seconds: sub-millisecond pings up to the 10 s command timeout. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Creates the metrics of one server, with its own registry. */
export function createServiceMetrics(): ServiceMetrics {
  const registry = new Registry();
  const requests = new Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'HTTP request latency (dispatch to response end) by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const logins = new Counter({
    name: 'svc_login_outcomes_total',
    help: 'Login-log outcomes by result code (0 = success; security events written there count too).',
    labelNames: ['code'] as const,
    registers: [registry],
  });
  const lockouts = new Counter({
    name: 'svc_login_lockouts_total',
    help: 'Accounts locked by wrong passwords.',
    registers: [registry],
  });
  const cacheReads = new Counter({
    name: 'svc_cache_reads_total',
    help: 'Cache reads by result (hit or miss).',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  // Both series exist from the start, so a rate() over them is defined before the first miss.
  cacheReads.inc({ result: 'hit' }, 0);
  cacheReads.inc({ result: 'miss' }, 0);
  lockouts.inc(0);

  return {
    registry,
    request(method, route, status, seconds) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    loginOutcome(resultCode) {
      logins.inc({ code: String(resultCode) });
    },
    lockout() {
      lockouts.inc();
    },
    cacheRead(hit) {
      cacheReads.inc({ result: hit ? 'hit' : 'miss' });
    },
    addGauge(source) {
      const labelNames = source.label ? [source.label] : [];
      const label = source.label;
      const config = { name: source.name, help: source.help, labelNames, registers: [registry] };
      if (source.kind === 'counter') {
        new Counter({
          ...config,
          async collect() {
            const value = await source.read();
            if (value === undefined) return;
            this.reset();
            if (typeof value === 'number') this.inc(value);
            else if (label)
              for (const [key, n] of Object.entries(value)) if (n) this.inc({ [label]: key }, n);
          },
        });
        return;
      }
      new Gauge({
        ...config,
        async collect() {
          const value = await source.read();
          this.reset();
          if (value === undefined) {
            if (!label) this.set(Number.NaN);
            return;
          }
          if (typeof value === 'number') this.set(value);
          else if (label)
            for (const [key, n] of Object.entries(value)) if (n !== undefined) this.set({ [label]: key }, n);
        },
      });
    },
    render: () => registry.metrics(),
  };
}
