/**
 * SegmentRouter (issue 16): it must answer exactly what Hono's TrieRouter answers for the tables it takes (the
 * same registrations, in the same order, with the same parameters), on the reference host's own table and on
 * random tables, and refuse the paths it cannot match so that FusedRouter keeps the trie for them.
 */
import { Hono } from 'hono';
import type { Result } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';
import type { H, RouterRoute } from 'hono/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/index.js';
import { FusedRouter } from './fused-router.js';
import { SegmentRouter } from './segment-router.js';

/** A match as plain data: which registration (by its number), with which parameters. */
function plain(result: Result<number>): [number, Record<string, string>][] {
  return (result[0] as [number, Record<string, string>][]).map(([handler, params]) => [
    handler,
    { ...params },
  ]);
}

/** Both routers over one table. */
function pair(table: readonly (readonly [string, string])[]) {
  const trie = new TrieRouter<number>();
  const segments = new SegmentRouter<number>();
  table.forEach(([method, path], i) => {
    trie.add(method, path, i);
    segments.add(method, path, i);
  });
  return { trie, segments };
}

/** A seeded generator (mulberry32): the same tables and paths on every run. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return <V>(items: readonly V[]): V => items[Math.floor(next() * items.length)] as V;
}

describe('SegmentRouter', () => {
  it('answers what the TrieRouter answers on random tables of statics, parameters and trailing wildcards', () => {
    const pick = random(16);
    const routeSegments = ['a', 'b', 'page', '', ':p', ':p', '*'] as const;
    const requestSegments = ['a', 'b', 'page', '1', '', '*', '%41'] as const;
    let compared = 0;
    let matched = 0;
    for (let table = 0; table < 40; table++) {
      const routes: [string, string][] = [];
      while (routes.length < 40) {
        const length = 1 + Math.floor(pick([0, 1, 2, 3]));
        const parts: string[] = [];
        for (let i = 0; i < length; i++) {
          const part = pick(routeSegments);
          // A wildcard only last; parameter names differ within a path (`:p0`, `:p1`, …).
          if (part === '*' && i < length - 1) continue;
          parts.push(part === ':p' ? `:p${i}` : part);
          if (part === '*') break;
        }
        const path = pick(['', '/']) === '' && parts[0] === '*' ? '*' : `/${parts.join('/')}`;
        routes.push([pick(['GET', 'PUT', 'ALL']), path]);
      }
      const { trie, segments } = pair(routes);
      for (let probe = 0; probe < 60; probe++) {
        const length = 1 + Math.floor(pick([0, 1, 2, 3, 4]));
        const path = `/${Array.from({ length }, () => pick(requestSegments)).join('/')}`;
        const method = pick(['GET', 'PUT', 'POST']);
        const expected = plain(trie.match(method, path));
        expect([method, path, plain(segments.match(method, path))]).toEqual([method, path, expected]);
        compared++;
        if (expected.length > 0) matched++;
      }
    }
    // The tables are dense enough that most probes match something (the comparison is not of empty answers).
    expect(compared).toBe(2400);
    expect(matched).toBeGreaterThan(compared / 2);
  });

  it('keeps the trie’s answers at the edges: `/api` for `/api/*`, empty segments, a request segment `*`', () => {
    const { trie, segments } = pair([
      ['ALL', '/*'],
      ['GET', '/api/*'],
      ['GET', '/api/:id'],
      ['GET', '/api/page'],
      ['GET', '/api/'],
      ['GET', '/'],
      ['PUT', '/api/:id/x'],
    ]);
    for (const path of [
      '/api',
      '/api/',
      '/api/*',
      '/*',
      '/',
      '//',
      '/api/page',
      '/api/7',
      '/api/7/x',
      '/api//x',
      '',
    ])
      for (const method of ['GET', 'PUT', 'HEAD'])
        expect([method, path, plain(segments.match(method, path))]).toEqual([
          method,
          path,
          plain(trie.match(method, path)),
        ]);
    // One of them spelled out: the wildcard, the parameter route and the static route all match, in order.
    expect(plain(segments.match('GET', '/api/page'))).toEqual([
      [0, {}],
      [1, {}],
      [2, { id: 'page' }],
      [3, {}],
    ]);
  });

  it('answers a request segment that spells a parameter label once, where the trie answers it twice', () => {
    const { trie, segments } = pair([
      ['GET', '/users/:id'],
      ['ALL', '/users/:id/*'],
    ]);
    expect(plain(trie.match('GET', '/users/:id')).map(([h]) => h)).toEqual([0, 0, 1, 1]);
    expect(plain(segments.match('GET', '/users/:id'))).toEqual([
      [0, { id: ':id' }],
      [1, { id: ':id' }],
    ]);
  });

  it('refuses the paths it cannot match as the trie does', () => {
    for (const path of ['/a/:id{[0-9]+}', '/a/:id?', '/a/*/b', '/a/b*', '/a/:id/:id', '/a/{x}'])
      expect([path, SegmentRouter.supports(path)]).toEqual([path, false]);
    for (const path of ['*', '/*', '/', '/a/:id/b/:name', '/a/', '/a:b/c'])
      expect(SegmentRouter.supports(path)).toBe(true);
    expect(() => new SegmentRouter().add('GET', '/a/:id{[0-9]+}', 0)).toThrow(/cannot match/);
  });
});

describe('FusedRouter with the SegmentRouter', () => {
  it('gives the segment router up for the trie when a path it cannot match is added, answering the same', async () => {
    const router = new FusedRouter<[H, RouterRoute]>();
    const app = new Hono({ router });
    app.get('/u/:id', (c) => c.text(`u ${c.req.param('id')}`));
    app.get('/u/page', (c) => c.text('page'));
    expect(router.matcher).toBe('SegmentRouter');
    expect(await (await app.request('/u/7')).text()).toBe('u 7');
    app.get('/n/:id{[0-9]+}', (c) => c.text(`n ${c.req.param('id')}`));
    expect(router.matcher).toBe('TrieRouter');
    expect(await (await app.request('/n/12')).text()).toBe('n 12');
    expect((await app.request('/n/x')).status).toBe(404);
    expect(await (await app.request('/u/8')).text()).toBe('u 8');
    expect(await (await app.request('/u/page')).text()).toBe('u page');
  });
});

describe('the reference table', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  it('is matched by the segment router, and as the trie would match it', () => {
    const app = t.server.app as unknown as { router: FusedRouter<unknown>; routes: RouterRoute[] };
    expect(app.router.matcher).toBe('SegmentRouter');
    const table = app.routes.map((r) => [r.method, r.path] as const);
    expect(table.length).toBeGreaterThan(400);
    const { trie, segments } = pair(table);
    const probes = new Set<string>();
    for (const [, path] of table) {
      const concrete = path.replaceAll(/:[^/]+/g, '17');
      probes.add(concrete);
      probes.add(`${concrete}/`);
      probes.add(concrete.replace(/\/[^/]*$/, '/page'));
      probes.add(`${concrete}/x`);
    }
    let compared = 0;
    for (const path of probes)
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
        expect([method, path, plain(segments.match(method, path))]).toEqual([
          method,
          path,
          plain(trie.match(method, path)),
        ]);
        compared++;
      }
    expect(compared).toBeGreaterThan(1000);
  });
});
