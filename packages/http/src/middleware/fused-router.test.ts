/**
 * FusedRouter (issue 16): a route that runs the pipeline itself is matched alone, so Hono dispatches it as one
 * handler; everything else keeps the global pipeline in front, exactly as registered. The memo of matches is
 * bounded by the route table, not by what clients ask for.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import type { H, RouterRoute } from 'hono/types';
import { describe, expect, it } from 'vitest';
import { FusedRouter } from './fused-router.js';
import { FUSED, PIPELINE } from './pipeline.js';

type Entry = [[unknown, { path: string }], Record<string, string>];

function world() {
  const router = new FusedRouter<[H, RouterRoute]>();
  const app = new Hono({ router });
  const seen: string[] = [];
  const pipeline: MiddlewareHandler = async (c, next) => {
    seen.push(`pipeline ${c.req.path}`);
    await next();
  };
  Object.defineProperty(pipeline, PIPELINE, { value: true });
  const fused = (n: number, fn: (...args: never[]) => unknown) => {
    Object.defineProperty(fn, FUSED, { value: n });
    return fn;
  };
  app.use('*', pipeline);
  app.get('/a', fused(1, (c: never) => (c as { text(t: string): Response }).text('a')) as never);
  app.get('/u/:id', fused(1, (c: never) => (c as { text(t: string): Response }).text('u')) as never);
  // A route with validation: its first handler, a validator and the handler belong to it (3 entries).
  const pre = fused(3, (async (_c: unknown, next: () => Promise<void>) => next()) as never);
  const check: MiddlewareHandler = async (_c, next) => next();
  app.get('/v/:id', pre as never, check, (c) => c.text('v'));
  // A consumer's own middleware in front of a fused route: the pipeline must stay first.
  const consumer: MiddlewareHandler = async (_c, next) => {
    seen.push('consumer');
    await next();
  };
  app.use('/b', consumer);
  app.get('/b', fused(1, (c: never) => (c as { text(t: string): Response }).text('b')) as never);
  app.get('/plain', (c) => c.text('plain'));
  // Registered after the routes, like the web root: never reached by a route that answers.
  app.use('*', async (_c, next) => next());
  return { app, router, seen, pipeline, consumer };
}

const paths = (router: FusedRouter<[H, RouterRoute]>, method: string, path: string) =>
  (router.match(method, path)[0] as unknown as Entry[]).map(([[handler, route]]) => ({
    fused: (handler as { [FUSED]?: number })[FUSED] !== undefined,
    pipeline: (handler as { [PIPELINE]?: boolean })[PIPELINE] === true,
    path: route.path,
  }));

describe('FusedRouter', () => {
  it('matches a fused route alone, static or with parameters, and keeps its parameters', async () => {
    const { app, router, seen } = world();
    await app.request('/a'); // Hono builds the routes on the first request
    expect(paths(router, 'GET', '/a')).toEqual([{ fused: true, pipeline: false, path: '/a' }]);
    const [entries] = router.match('GET', '/u/42') as unknown as [Entry[]];
    expect(entries).toHaveLength(1);
    expect(entries[0]?.[1]).toEqual({ id: '42' });
    expect(await (await app.request('/u/42')).text()).toBe('u');
    expect(seen).toEqual([]);
  });

  it('keeps a validated route whole: its first handler, validators and handler', () => {
    const { router } = world();
    expect(paths(router, 'GET', '/v/1')).toEqual([
      { fused: true, pipeline: false, path: '/v/:id' },
      { fused: false, pipeline: false, path: '/v/:id' },
      { fused: false, pipeline: false, path: '/v/:id' },
    ]);
  });

  it('keeps the pipeline in front of everything else, and of a consumer middleware before a fused route', async () => {
    const { app, router, seen } = world();
    expect(paths(router, 'GET', '/plain').map((e) => e.pipeline)).toEqual([true, false, false]);
    expect(paths(router, 'GET', '/b').map((e) => e.pipeline)).toEqual([true, false, false, false]);
    expect(paths(router, 'GET', '/missing').map((e) => e.pipeline)).toEqual([true, false]);
    expect(await (await app.request('/b')).text()).toBe('b');
    expect(await (await app.request('/plain')).text()).toBe('plain');
    expect((await app.request('/missing')).status).toBe(404);
    expect(seen).toEqual(['pipeline /b', 'consumer', 'pipeline /plain', 'pipeline /missing']);
  });

  it('memoises the matches of registered static paths only', () => {
    const { router } = world();
    router.match('GET', '/a');
    router.match('GET', '/plain');
    const known = router.memoised;
    expect(known).toBe(2);
    for (let i = 0; i < 1000; i++) {
      router.match('GET', `/u/${i}`);
      router.match('GET', `/nothing/${i}`);
    }
    expect(router.memoised).toBe(known);
    // The memo answers what the router answered.
    expect(router.match('GET', '/a')).toBe(router.match('GET', '/a'));
  });
});
