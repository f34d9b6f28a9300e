/**
 * The edges of every request, on every dialect: JSON bodies with NUL, lone surrogates or invalid UTF-8 answer
 * 48000 (authenticated or not, login included) and never reach the database; every `/api/` response — success,
 * business error, 404, 413, 48000 — carries the secure headers of contract §10, over real HTTP (raw Node
 * response) and through `app.request`, while the web root's pages do not get the API's `no-store`.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { DbType } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login } from './testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from './testing/index.js';

const SECURE = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field below.
const json = async (res: Response): Promise<any> => res.json();

function expectSecure(headers: Headers, what: string): void {
  for (const [name, value] of Object.entries(SECURE))
    expect(headers.get(name), `${what}: ${name}`).toBe(value);
}

export function defineEdgeContract(dbType: DbType): void {
  describe(`request edges on ${dbType}`, () => {
    let t: TestServer;
    let admin: string;
    let base: string;
    let close: () => Promise<void>;

    beforeAll(async () => {
      t = await startTestServer({ dbType, env: { Service__Security__RateLimit__Enabled: 'false' } });
      admin = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
      const http = serve({ fetch: t.server.app.fetch, hostname: '127.0.0.1', port: 0 });
      await new Promise<void>((ready) => http.once('listening', () => ready()));
      base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
      close = () => new Promise<void>((done) => http.close(() => done()));
    });
    afterAll(async () => {
      await close?.();
      await t?.close();
    });

    const raw = (path: string, body: string | Uint8Array, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });

    describe('JSON bodies', () => {
      const bad: [string, string | Uint8Array, string][] = [
        ['NUL in a string', '{"account":"victim\\u0000","password":"x"}', 'account'],
        ['NUL alone', '{"account":"\\u0000","password":"x"}', 'account'],
        ['a lone high surrogate', '{"account":"a\\ud800b","password":"x"}', 'account'],
        ['a lone low surrogate', '{"account":"\\udc00","password":"x"}', 'account'],
        ['NUL in a property name', '{"account":"a","password":"x","\\u0000":1}', '$'],
        [
          'invalid UTF-8',
          new Uint8Array([...Buffer.from('{"account":"a'), 0xff, 0xfe, ...Buffer.from('"}')]),
          '$',
        ],
        [
          'an overlong encoding',
          new Uint8Array([...Buffer.from('{"account":"'), 0xc0, 0x80, ...Buffer.from('"}')]),
          '$',
        ],
        [
          'UTF-8 encoded surrogate',
          new Uint8Array([...Buffer.from('{"account":"'), 0xed, 0xa0, 0x80, ...Buffer.from('"}')]),
          '$',
        ],
      ];

      it.each(bad)(
        'login with %s answers 48000 naming the place, and writes no exception row',
        async (_, body, path) => {
          const before = (await t.server.database.repos.exceptionLogs.page({ current: 1, size: 1 })).total;
          const res = await raw('/api/v1/auth/login', body);
          expect(res.status).toBe(200);
          const answer = await json(res);
          expect(answer).toMatchObject({ code: 48000, data: null });
          expect(answer.args.errors[0].path).toBe(path);
          expectSecure(res.headers, 'refused body');
          const after = (await t.server.database.repos.exceptionLogs.page({ current: 1, size: 1 })).total;
          expect(after).toBe(before);
        },
      );

      // Under 1 MiB, 300,000 levels deep: the check of `\u` escapes once overflowed the call stack here (500).
      it('answers 48000 to a deeply nested body with escapes, anonymous or not, and writes no exception row', async () => {
        const depth = 300_000;
        const nested = (inner: string) => `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`;
        const before = (await t.server.database.repos.exceptionLogs.page({ current: 1, size: 1 })).total;
        for (const [path, body, headers] of [
          ['/api/v1/auth/login', nested('"\\u0041"'), {}],
          ['/api/v1/sys/org', nested('"\\u0041"'), bearer(admin)],
          ['/api/v1/auth/login', nested('"\\u0000"'), {}],
        ] as const) {
          const res = await raw(path, body, headers);
          expect(res.status, path).toBe(200);
          const answer = await json(res);
          expect(answer.code, path).toBe(48000);
          // The place of a bad string deep down is named by its start, not by 600,000 characters.
          expect(JSON.stringify(answer).length, path).toBeLessThan(2_000);
        }
        const after = (await t.server.database.repos.exceptionLogs.page({ current: 1, size: 1 })).total;
        expect(after).toBe(before);
      });

      it('refuses NUL on an authenticated write too, storing nothing', async () => {
        const res = await raw(
          '/api/v1/sys/org',
          '{"parentId":1,"name":"n\\u0000","code":"nul-org"}',
          bearer(admin),
        );
        expect((await json(res)).code).toBe(48000);
        const page = await t.request('/api/v1/sys/org/list', { headers: bearer(admin) });
        expect(JSON.stringify(await json(page))).not.toContain('nul-org');
      });

      it('accepts what only looks alike: an escaped backslash before u0000, a surrogate pair, a BOM-free body', async () => {
        const res = await raw(
          '/api/v1/sys/org',
          '{"parentId":1,"name":"a\\\\u0000 \\ud83d\\ude00 é","code":"edge-ok"}',
          bearer(admin),
        );
        expect((await json(res)).code).toBe(0);
        const tree = JSON.stringify(
          await json(await t.request('/api/v1/sys/org/list', { headers: bearer(admin) })),
        );
        expect(tree).toContain('a\\\\u0000 😀 é');
      });

      it('refuses NUL in a path parameter and out-of-range filters (48000, never 500)', async () => {
        for (const path of [
          '/api/v1/sys/dict/items/%00',
          '/api/v1/sys/dict/items/a%00b',
          '/api/v1/sys/config/value/sys.site%00',
          '/api/v1/sys/recycle/user%00/page',
          '/api/v1/sys/notice/page?type=40000',
          '/api/v1/sys/notice/page?type=-99999999999',
        ]) {
          const res = await fetch(`${base}${path}`, { headers: bearer(admin) });
          expect(res.status, path).toBe(200);
          expect((await json(res)).code, path).toBe(48000);
        }
      });

      it('refuses NUL in a text filter of the query string too (48000, never 500)', async () => {
        for (const path of [
          '/api/v1/sys/user/page?account=%00',
          '/api/v1/sys/log/login/page?account=a%00b',
        ]) {
          const res = await fetch(`${base}${path}`, { headers: bearer(admin) });
          expect(res.status, path).toBe(200);
          const body = await json(res);
          expect(body.code, path).toBe(48000);
          expect(body.args.errors[0].path, path).toBe('account');
        }
      });

      it('answers a burst of NUL logins with 48000 each, never 500', async () => {
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            raw('/api/v1/auth/login', `{"account":"u${i}\\u0000","password":"x"}`),
          ),
        );
        for (const res of answers) {
          expect(res.status).toBe(200);
          expect((await json(res)).code).toBe(48000);
        }
      });
    });

    describe('secure headers on /api/ responses', () => {
      it('over real HTTP: success, business error, 401, 404, 413 and malformed JSON', async () => {
        const cases: [string, Promise<Response>, number][] = [
          ['ping', fetch(`${base}/api/v1/ping`, { headers: bearer(admin) }), 200],
          ['login failure', raw('/api/v1/auth/login', '{"account":"nobody","password":"Wrong#Pass1"}'), 200],
          ['401', fetch(`${base}/api/v1/sys/user/page`), 401],
          ['404', fetch(`${base}/api/v1/no-such-route`), 404],
          [
            '413',
            raw('/api/v1/auth/login', JSON.stringify({ account: 'x'.repeat(1_100_000), password: 'x' })),
            413,
          ],
          ['malformed', raw('/api/v1/auth/login', '{"account":'), 200],
          ['authenticated', fetch(`${base}/api/v1/sys/user/page`, { headers: bearer(admin) }), 200],
        ];
        for (const [what, pending, status] of cases) {
          const res = await pending;
          expect(res.status, what).toBe(status);
          expectSecure(res.headers, what);
          expect(res.headers.get('x-trace-id'), what).toMatch(/^[0-9a-f]{32}$/);
          await res.arrayBuffer();
        }
      });

      it('through app.request as well', async () => {
        for (const [what, res] of [
          ['ping', await t.request('/api/v1/ping')],
          ['404', await t.request('/api/v1/no-such-route')],
          ['401', await t.request('/api/v1/sys/user/page')],
          ['48000', await t.request('/api/v1/auth/login', { json: { account: 'a\u0000', password: 'x' } })],
        ] as const) {
          expectSecure(res.headers, what);
        }
      });

      it('on the path the router matched, whatever form the request target took (dot segments, absolute form, %-escapes)', async () => {
        const { request } = await import('node:http');
        const port = Number(new URL(base).port);
        const send = (path: string) =>
          new Promise<{ status: number; headers: Headers; body: string }>((done, fail) => {
            const req = request(
              { host: '127.0.0.1', port, path, method: 'GET', headers: bearer(admin) },
              (res) => {
                let body = '';
                res.setEncoding('utf8');
                res.on('data', (chunk: string) => {
                  body += chunk;
                });
                res.on('end', () => {
                  const headers = new Headers();
                  for (const [name, value] of Object.entries(res.headers))
                    if (typeof value === 'string') headers.set(name, value);
                  done({ status: res.statusCode ?? 0, headers, body });
                });
              },
            );
            req.on('error', fail);
            req.end();
          });
        for (const target of [
          '/x/../api/v1/ping',
          '/./api/v1/ping',
          `${base}/api/v1/ping`,
          '/%61pi/v1/ping',
        ]) {
          const res = await send(target);
          // The %-escaped form only matters if the router decodes it to the API; the others must reach ping.
          if (target.startsWith('/%61') && res.status === 404) continue;
          expect(res.status, target).toBe(200);
          expectSecure(res.headers, target);
        }
      });

      it('leaves paths outside /api/ alone (probes and the web root serve their own headers)', async () => {
        const res = await fetch(`${base}/health`);
        expect(res.headers.get('x-frame-options')).toBeNull();
        expect(res.headers.get('cache-control')).not.toBe('no-store');
        await res.arrayBuffer();
      });
    });
  });
}
