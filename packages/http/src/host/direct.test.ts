/**
 * Answers before Hono (issue 16, middleware/direct.ts) over the wire: what the listener decides from the Node
 * request alone must be exactly what the usual way answers (status, header names in order, body), a revoked
 * session is refused on its next request, and everything the direct path cannot decide (a stage that applies,
 * a consumer's middleware, a session that needs a check, another method, an odd path or Host header) is left
 * to Hono. Each case counts the requests the direct path decided, so a test that passes because the usual way
 * answered instead fails here.
 */
import { ok } from '@svc/kernel';
import type { UserPrincipal } from '@svc/security';
import type { MiddlewareHandler } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../context.js';
import { createRoute, z } from '../index.js';
import type { DirectDispatch } from '../middleware/direct.js';
import { type RegisterContext, type RouteGuards, registerRoute } from '../openapi/register.js';
import { envelopeResponses } from '../openapi/schemas.js';
import { requireUser } from '../security/principal.js';
import { bearer, json, login, signJwt } from '../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/index.js';
import { type ListeningServer, listen } from './listen.js';
import { RawConnection, type RawResponse } from './raw-http.contract.js';

const NO_RATE_LIMIT = { Service__Security__RateLimit__Enabled: 'false' };

const answerOf = (user: UserPrincipal) => ({ who: user.account, kind: user.kind });

function testRoutes(ctx: RegisterContext): void {
  const get = (path: string) =>
    createRoute({ method: 'get', path, responses: envelopeResponses(z.unknown()) });
  // A consumer route with a direct answer, under /api and outside it.
  for (const path of ['/api/v1/test/direct-answer', '/custom/direct-answer']) {
    registerRoute(ctx, get(path), { auth: 'authenticated', direct: answerOf }, (c) =>
      c.json(ok(answerOf(requireUser(c))), 200),
    );
  }
  // A direct answer that fails: the usual way meets the failure again and answers it as any error.
  const broken = (_user: UserPrincipal): unknown => {
    throw new TypeError('direct-answer test');
  };
  registerRoute(ctx, get('/api/v1/test/direct-throws'), { auth: 'authenticated', direct: broken }, (c) =>
    c.json(ok(broken(requireUser(c))), 200),
  );
  // A plain function that still returns a promise (and a rejected one): the usual way answers it.
  const promised = (_user: UserPrincipal): unknown => Promise.reject(new TypeError('direct-promise test'));
  registerRoute(
    ctx,
    get('/api/v1/test/direct-promise'),
    { auth: 'authenticated', direct: promised },
    async (c) => c.json(ok(await promised(requireUser(c))), 200),
  );
  // Guards of the consumer's own around the built-in bearer guard: an extra check after it (the direct path
  // may still refuse a token, never answer), a check before it, and no guard at all.
  const builtIn = ctx.guards;
  if (!builtIn) throw new Error('the test app has no guards');
  const extra: MiddlewareHandler<AppEnv> = async (c) => c.json({ code: 41001, msgKey: 'x', data: null }, 403);
  const stricter: RouteGuards = { ...builtIn, forRoute: (meta) => [...builtIn.forRoute(meta), extra] };
  const earlier: RouteGuards = { ...builtIn, forRoute: (meta) => [extra, ...builtIn.forRoute(meta)] };
  const guarded = [
    ['/api/v1/test/stricter', stricter],
    ['/api/v1/test/earlier', earlier],
    ['/api/v1/test/unguarded', undefined],
  ] as const;
  for (const [path, guards] of guarded) {
    registerRoute({ ...ctx, guards }, get(path), { auth: 'authenticated', direct: answerOf }, (c) =>
      c.json(ok(null), 200),
    );
  }
  // A consumer's own middleware in front of a guarded route: it must see every request.
  ctx.app.use('/api/v1/test/behind-middleware', async (c, next) => {
    c.env?.outgoing?.setHeader('X-Consumer-Middleware', 'ran');
    await next();
  });
  registerRoute(ctx, get('/api/v1/test/behind-middleware'), { auth: 'authenticated' }, (c) =>
    c.json(ok(null), 200),
  );
}

/** A wrapper that counts what the direct path decided. */
function counting(direct: DirectDispatch | undefined) {
  const counter = { decided: 0 };
  const wrapped: DirectDispatch | undefined = direct
    ? (incoming, outgoing) => {
        const decided = direct(incoming, outgoing);
        if (decided) counter.decided++;
        return decided;
      }
    : undefined;
  return { counter, wrapped };
}

async function exchange(url: string, raw: string): Promise<RawResponse> {
  const connection = await RawConnection.open(url);
  try {
    await connection.write(raw);
    return await connection.response();
  } finally {
    connection.close();
  }
}

async function get(url: string, path: string, headers: Record<string, string> = {}, method = 'GET') {
  const connection = await RawConnection.open(url);
  try {
    await connection.request(method, path, headers);
    return await connection.response();
  } finally {
    connection.close();
  }
}

/** Header names in order, with the values that do not vary per request. */
function shape(res: RawResponse): string[] {
  return res.lines.map((line) => {
    const name = line.slice(0, line.indexOf(':')).trim();
    const varies = /^(x-trace-id|date|content-length)$/i.test(name);
    return varies ? name : line;
  });
}

/** The body without the values that vary per request (the ping's instant, an error's trace id). */
function bodyShape(res: RawResponse): unknown {
  if (res.body === '') return '';
  const body = JSON.parse(res.body);
  if (body?.data?.at !== undefined) body.data.at = typeof body.data.at;
  if (body?.args?.traceId !== undefined) body.args.traceId = typeof body.args.traceId;
  return body;
}

describe('answers before Hono on the listener', () => {
  let t: TestServer;
  let direct: ListeningServer;
  let usual: ListeningServer;
  let counter: { decided: number };
  let token: string;

  beforeAll(async () => {
    t = await startTestServer({ env: NO_RATE_LIMIT, configure: testRoutes });
    expect(t.server.direct).toBeTypeOf('function');
    const spy = counting(t.server.direct);
    counter = spy.counter;
    direct = await listen({ ...t.server, direct: spy.wrapped }, t.server.deps.logger, 'http://127.0.0.1:0');
    // The same service without the direct path: the usual way's answers, for comparison.
    usual = await listen({ ...t.server, direct: undefined }, t.server.deps.logger, 'http://127.0.0.1:0');
    token = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
  });
  afterAll(async () => {
    await usual?.shutdown();
    await direct?.shutdown();
    await t?.close();
  });

  /** Sends the same request both ways; expects the direct path to decide it (or not) and both answers equal. */
  async function both(path: string, headers: Record<string, string>, decides: boolean, method = 'GET') {
    const before = counter.decided;
    const mine = await get(direct.url, path, headers, method);
    expect(counter.decided - before).toBe(decides ? 1 : 0);
    const theirs = await get(usual.url, path, headers, method);
    expect(mine.status).toBe(theirs.status);
    expect(shape(mine)).toEqual(shape(theirs));
    expect(bodyShape(mine)).toEqual(bodyShape(theirs));
    return mine;
  }

  it('answers a live session as the route does', async () => {
    // A session's first request may load its copy; from then on it is known at once.
    expect((await get(usual.url, '/api/v1/ping', bearer(token))).status).toBe(200);
    const ping = await both('/api/v1/ping', bearer(token), true);
    expect(ping.status).toBe(200);
    expect(JSON.parse(ping.body)).toMatchObject({ code: 0, data: { pong: true, account: 'superAdmin' } });
    expect(ping.headers['x-trace-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(ping.headers['cache-control']).toBe('no-store');
    expect(ping.headers['content-type']).toBe('application/json');
    const own = await both('/api/v1/test/direct-answer', bearer(token), true);
    expect(JSON.parse(own.body)).toEqual({
      code: 0,
      msgKey: 'common.success',
      data: { who: 'superAdmin', kind: 'user' },
    });
    // Outside /api the answer carries no API secure headers, as the usual way's does not.
    const page = await both('/custom/direct-answer', bearer(token), true);
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBeUndefined();
    // A query string does not change the route.
    expect((await both('/api/v1/ping?_t=1', bearer(token), true)).status).toBe(200);
  });

  it('refuses a missing, malformed, forged or foreign token with the guard answer', async () => {
    const [head, payload] = token.split('.');
    const forged = `${head}.${payload}.${'A'.repeat(43)}`;
    const foreign = signJwt({ alg: 'HS256', typ: 'JWT' }, { sub: '1' }, Buffer.alloc(64, 7));
    for (const headers of [
      {},
      { authorization: 'Basic abc' },
      bearer('x.y'),
      bearer(forged),
      bearer(foreign),
    ]) {
      const res = await both('/api/v1/ping', headers, true);
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body)).toEqual({ code: 40006, msgKey: 'error.auth.tokenInvalid', data: null });
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    // A permission route refuses the same way before its permission check.
    expect((await both('/api/v1/sys/user/page', bearer(forged), true)).status).toBe(401);
  });

  it('refuses a session on the request after its logout', async () => {
    const own = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
    expect((await get(usual.url, '/api/v1/ping', bearer(own))).status).toBe(200);
    expect((await both('/api/v1/ping', bearer(own), true)).status).toBe(200);
    const out = await get(usual.url, '/api/v1/auth/logout', bearer(own), 'POST');
    expect(JSON.parse(out.body).code).toBe(0);
    const before = counter.decided;
    const after = await get(direct.url, '/api/v1/ping', bearer(own));
    expect(after.status).toBe(401);
    expect(counter.decided - before).toBe(1);
  });

  it('leaves to Hono what it cannot decide from the request alone', async () => {
    // A permission route with a valid token (the permission check waits), another method, an encoded path.
    expect((await both('/api/v1/sys/user/page?pageNo=1&pageSize=1', bearer(token), false)).status).toBe(200);
    await both('/api/v1/ping', bearer(token), false, 'HEAD');
    expect((await both('/api/v1/p%69ng', bearer(token), false)).status).toBe(200);
    expect((await both('/api/v1/ping/', bearer(token), false)).status).toBe(404);
    // A route whose direct answer throws: no crash, the usual way's 500 envelope.
    const failed = await both('/api/v1/test/direct-throws', bearer(token), false);
    expect(failed.status).toBe(500);
    expect(JSON.parse(failed.body).code).toBe(50000);
    // The consumer's guards: an extra check after the bearer guard is never skipped (a refused token is still
    // refused here), one before it answers first, and a route without guards is never refused.
    expect((await both('/api/v1/test/stricter', bearer(token), false)).status).toBe(403);
    expect((await both('/api/v1/test/stricter', bearer('x.y'), true)).status).toBe(401);
    expect((await both('/api/v1/test/earlier', bearer('x.y'), false)).status).toBe(403);
    expect((await both('/api/v1/test/unguarded', {}, false)).status).toBe(200);
    // A direct answer that is a promise: never left unhandled (vitest fails a run on one), the usual way's 500.
    expect((await both('/api/v1/test/direct-promise', bearer(token), false)).status).toBe(500);
    // A consumer's middleware in front of the route sees the refused request too.
    const refused = await both('/api/v1/test/behind-middleware', bearer('x.y'), false);
    expect(refused.status).toBe(401);
    expect(refused.headers['x-consumer-middleware']).toBe('ran');
  });

  it('answers as the usual way after a route or middleware is added later', async () => {
    await both('/api/v1/test/direct-answer', bearer(token), true);
    // Added after the route, a middleware matches after it: the route answers first on both ways (the router
    // changed, so the direct path draws its verdict again, and it stands).
    t.server.app.use('/api/v1/test/direct-answer', async (c, next) => {
      c.env?.outgoing?.setHeader('X-Late-Middleware', 'ran');
      await next();
    });
    const res = await both('/api/v1/test/direct-answer', bearer(token), true);
    expect(res.headers['x-late-middleware']).toBeUndefined();
  });

  it('reads the first Host and Authorization, as Node does', async () => {
    const request = (lines: string[]) =>
      `GET /api/v1/ping HTTP/1.1\r\n${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`;
    const cases: [string[], number][] = [
      [['Host: localhost', `authorization: Bearer x.y`, `Authorization: Bearer ${token}`], 401],
      [['HOST: localhost', `AUTHORIZATION: Bearer ${token}`, 'Authorization: Bearer x.y'], 200],
      [['Host: localhost', 'Host: bad host', `Authorization: Bearer ${token}`], 200],
    ];
    for (const [lines, status] of cases) {
      const before = counter.decided;
      const mine = await exchange(direct.url, request(lines));
      expect(counter.decided - before).toBe(1);
      const theirs = await exchange(usual.url, request(lines));
      expect([mine.status, theirs.status]).toEqual([status, status]);
    }
  });

  it('leaves a Host header node-server refuses to node-server', async () => {
    const before = counter.decided;
    const request = (host: string) =>
      `GET /api/v1/ping HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`;
    for (const host of ['bad host', 'a@b', 'x/y']) {
      const mine = await exchange(direct.url, request(host));
      const theirs = await exchange(usual.url, request(host));
      expect(mine.status).toBe(theirs.status);
      expect(mine.status).toBeGreaterThanOrEqual(400);
    }
    expect(counter.decided).toBe(before);
    // Host headers node-server takes are decided here (and one it refuses for a case difference beside a port
    // is not).
    for (const [host, decided] of [
      ['localhost:8080', true],
      ['LOCALHOST', true],
      ['LocalHost:8080', false],
    ] as const) {
      const at = counter.decided;
      const mine = await exchange(direct.url, request(host));
      expect(mine.status).toBe((await exchange(usual.url, request(host))).status);
      expect(mine.status).toBe(decided ? 200 : 400);
      expect(counter.decided - at).toBe(decided ? 1 : 0);
    }
  });
});

describe('the direct path during the drain', () => {
  it('answers with Connection: close and closes the connection, as every answer of the drain', async () => {
    const t = await startTestServer({ env: NO_RATE_LIMIT });
    const real = t.server.direct;
    if (!real) throw new Error('no direct path');
    let running: ListeningServer | undefined;
    let stopping: Promise<void> | undefined;
    let decided = 0;
    // The shutdown starts in the very turn the request arrives (its drain flag is set synchronously), so the
    // direct path answers while the server drains: no timing involved.
    const spy: DirectDispatch = (incoming, outgoing) => {
      if (incoming.headers['x-stop-now'] !== undefined) stopping ??= running?.shutdown();
      const answered = real(incoming, outgoing);
      if (answered) decided++;
      return answered;
    };
    running = await listen({ ...t.server, direct: spy }, t.server.deps.logger, 'http://127.0.0.1:0');
    try {
      const token = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
      const connection = await RawConnection.open(running.url);
      await connection.request('GET', '/api/v1/ping', bearer(token));
      expect((await connection.response()).headers.connection).toBe('keep-alive');
      const before = decided;
      await connection.request('GET', '/api/v1/ping', { ...bearer('x.y'), 'X-Stop-Now': '1' });
      const res = await connection.response();
      expect(res.status).toBe(401);
      expect(res.headers.connection).toBe('close');
      await connection.closed;
      expect(decided - before).toBe(1);
    } finally {
      await (stopping ?? running.shutdown());
      await t.close();
    }
  });
});

/** Two listeners of one service: one asking the (counted) direct path first, one without it. */
async function bothListeners(t: TestServer) {
  const spy = counting(t.server.direct);
  const direct = await listen(
    { ...t.server, direct: spy.wrapped },
    t.server.deps.logger,
    'http://127.0.0.1:0',
  );
  const usual = await listen({ ...t.server, direct: undefined }, t.server.deps.logger, 'http://127.0.0.1:0');
  return { spy, direct, usual };
}

describe('the direct path under rate limiting', () => {
  it('counts each request once, with the usual way, and leaves refusals and unknown settings to it', async () => {
    const t = await startTestServer({
      env: { Service__Security__RateLimit__PermitPerWindow: '7' },
      configure: testRoutes,
    });
    const { spy, direct, usual } = await bothListeners(t);
    try {
      const auth = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
      const decided = () => spy.counter.decided;
      const statuses: number[] = [];
      const send = async (url: string, path = '/api/v1/ping', headers = auth) => {
        const res = await get(url, path, headers);
        statuses.push(res.status);
        return res;
      };
      // 1: the usual way reads the settings and warms the session.
      await send(usual.url);
      // 2, 3: decided here, a live session and a forged token.
      await send(direct.url);
      await send(direct.url, '/api/v1/ping', bearer('x.y'));
      expect(decided()).toBe(2);
      // 4: counted here, answered the usual way (a permission route with a live token), not counted twice.
      await send(direct.url, '/api/v1/sys/config/site');
      expect(decided()).toBe(2);
      // 5 on the other listener, 6 and 7 here: one bucket for both (a page outside /api is not counted).
      await send(usual.url);
      await send(direct.url);
      await send(direct.url, '/custom/direct-answer');
      expect(decided()).toBe(4);
      await send(direct.url);
      expect(decided()).toBe(5);
      // 8 and 9: refused, here by the usual way's answer (Retry-After, 40008, one warning), there alike.
      const mine = await send(direct.url);
      const theirs = await send(usual.url);
      expect(decided()).toBe(5);
      expect(statuses).toEqual([200, 200, 401, 200, 200, 200, 200, 200, 429, 429]);
      expect(shape(mine).filter((l) => !/^retry-after/i.test(l))).toEqual(
        shape(theirs).filter((l) => !/^retry-after/i.test(l)),
      );
      expect(JSON.parse(mine.body).code).toBe(40008);
      expect(Number(mine.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(t.server.deps.security.rateLimiter.stats().refused).toBe(2);
      expect(t.logs.filter((l) => l.includes('Rate limit reached')).length).toBe(1);
    } finally {
      await direct.shutdown();
      await usual.shutdown();
      await t.close();
    }
  });

  it("counts a trusted proxy's clients (X-Forwarded-For, repeated headers joined) in the buckets the usual way uses", async () => {
    const t = await startTestServer({
      env: {
        Service__Security__RateLimit__PermitPerWindow: '2',
        Service__Security__ForwardedHeaders__Enabled: 'true',
        Service__Security__ForwardedHeaders__KnownProxies__0: '127.0.0.1',
      },
    });
    const { spy, direct, usual } = await bothListeners(t);
    try {
      const forged = bearer('x.y');
      const from = async (url: string, lines: string[]) => {
        const head = [
          'GET /api/v1/ping HTTP/1.1',
          'Host: localhost',
          `Authorization: ${forged.authorization}`,
        ];
        return (await exchange(url, `${[...head, ...lines].join('\r\n')}\r\n\r\n`)).status;
      };
      // Warm the settings through the usual way (clients of their own): the config snapshot's first load and
      // the read after it.
      expect(await from(usual.url, ['X-Forwarded-For: 198.51.100.9'])).toBe(401);
      expect(await from(usual.url, ['X-Forwarded-For: 198.51.100.10'])).toBe(401);
      // Client A, its address given in two header lines (Node joins them: the last hop is the client).
      const a = ['X-Forwarded-For: 10.0.0.1', 'X-Forwarded-For: 203.0.113.7'];
      expect(await from(direct.url, a)).toBe(401);
      expect(await from(usual.url, ['X-Forwarded-For: 203.0.113.7'])).toBe(401);
      expect(await from(direct.url, a)).toBe(429);
      // Client B has a bucket of its own, on either listener; IPv6 clients by their /64.
      expect(await from(direct.url, ['X-Forwarded-For: 203.0.113.8'])).toBe(401);
      expect(await from(direct.url, ['X-Forwarded-For: 2001:db8::1'])).toBe(401);
      expect(await from(usual.url, ['X-Forwarded-For: 2001:db8::2'])).toBe(401);
      expect(await from(direct.url, ['X-Forwarded-For: 2001:db8::3'])).toBe(429);
      expect(spy.counter.decided).toBe(3);
    } finally {
      await direct.shutdown();
      await usual.shutdown();
      await t.close();
    }
  });

  it('leaves a request to the usual way while the settings must be read again, then decides again', async () => {
    const t = await startTestServer({ configure: testRoutes });
    const spy = counting(t.server.direct);
    const running = await listen(
      { ...t.server, direct: spy.wrapped },
      t.server.deps.logger,
      'http://127.0.0.1:0',
    );
    try {
      const auth = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
      expect((await get(running.url, '/api/v1/ping', auth)).status).toBe(200);
      expect((await get(running.url, '/api/v1/ping', auth)).status).toBe(200);
      expect(spy.counter.decided).toBe(1);
      const change = await fetch(`${running.url}/api/v1/sys/config/batch`, {
        method: 'PUT',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify([{ key: 'sys.security.rateLimit.permitPerWindow', value: '1000' }]),
      });
      expect((await json(change)).code).toBe(0);
      expect((await get(running.url, '/api/v1/ping', auth)).status).toBe(200);
      expect(spy.counter.decided).toBe(1);
      // The config cache reloads on that request; the settings are kept from the one after it (whose read
      // began with the reloaded version), and from then on decided here again.
      for (let i = 0; i < 3; i++) expect((await get(running.url, '/api/v1/ping', auth)).status).toBe(200);
      expect(spy.counter.decided).toBeGreaterThanOrEqual(2);
      const before = spy.counter.decided;
      expect((await get(running.url, '/api/v1/ping', auth)).status).toBe(200);
      expect(spy.counter.decided).toBe(before + 1);
    } finally {
      await running.shutdown();
      await t.close();
    }
  });
});

describe('the direct path stays out', () => {
  it('with metrics on (they observe every request)', async () => {
    const t = await startTestServer({ env: { ...NO_RATE_LIMIT, Service__Metrics__Enabled: 'true' } });
    try {
      expect(t.server.direct).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it('refuses `direct` on a route it could not answer from the user alone', async () => {
    const refused: string[] = [];
    const t = await startTestServer({
      env: NO_RATE_LIMIT,
      configure: (ctx) => {
        const attempts: [string, Parameters<typeof createRoute>[0], 'authenticated' | 'permission'][] = [
          ['post', { method: 'post', path: '/api/v1/test/d1', responses: {} }, 'authenticated'],
          ['permission', { method: 'get', path: '/api/v1/test/d2', responses: {} }, 'permission'],
          ['param', { method: 'get', path: '/api/v1/test/d3/{id}', responses: {} }, 'authenticated'],
          ['async', { method: 'get', path: '/api/v1/test/d5', responses: {} }, 'authenticated'],
          [
            'query',
            {
              method: 'get',
              path: '/api/v1/test/d4',
              request: { query: z.object({ q: z.string() }) },
              responses: {},
            },
            'authenticated',
          ],
        ];
        const later = async (user: UserPrincipal) => answerOf(user);
        for (const [name, config, auth] of attempts) {
          const direct = name === 'async' ? later : answerOf;
          try {
            registerRoute(ctx, createRoute(config), { auth, direct }, (c) => c.json(ok(null), 200));
          } catch (error) {
            if (error instanceof TypeError) refused.push(name);
          }
        }
      },
    });
    await t.close();
    expect(refused).toEqual(['post', 'permission', 'param', 'async', 'query']);
  });
});
