/**
 * The trace id and the secure headers over the wire (issue 16): on the reference listener the first stage only
 * presets them and the response class writes them with its one header write. Each goes out exactly once, a
 * header the route set itself wins, pages outside /api get no API headers, and every response (an answer, a
 * refusal, a 404, an error) carries them as it did when they were set one by one.
 */
import { ok } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoute, z } from '../index.js';
import { API_SECURE_HEADERS } from '../middleware/secure-headers.js';
import { registerRoute } from '../openapi/register.js';
import { envelopeResponses } from '../openapi/schemas.js';
import { startTestServer, type TestServer } from '../testing/index.js';
import { type ListeningServer, listen } from './listen.js';
import { RawConnection, type RawResponse } from './raw-http.contract.js';

const SHARED: Record<string, string> = { 'Cache-control': 'private, max-age=9' };

/** How often each header name occurs in a response, by lower-case name. */
function counts(res: RawResponse): Record<string, number> {
  const seen: Record<string, number> = {};
  for (const line of res.lines) {
    const name = line.slice(0, line.indexOf(':')).trim().toLowerCase();
    seen[name] = (seen[name] ?? 0) + 1;
  }
  return seen;
}

describe('preset response headers on the listener', () => {
  let t: TestServer;
  let running: ListeningServer;
  beforeAll(async () => {
    t = await startTestServer({
      configure: (ctx) => {
        const route = (path: string) =>
          createRoute({ method: 'get', path, responses: envelopeResponses(z.null()) });
        registerRoute(ctx, route('/api/v1/test/plain-answer'), { auth: 'anonymous' }, (c) =>
          c.json(ok(null), 200),
        );
        // The route's own cache policy, in both spellings Hono hands on: it wins over the preset.
        registerRoute(ctx, route('/api/v1/test/own-cache'), { auth: 'anonymous' }, (c) =>
          c.json(ok(null), 200, { 'Cache-Control': 'private, max-age=60' }),
        );
        registerRoute(ctx, route('/api/v1/test/own-cache-lower'), { auth: 'anonymous' }, (c) => {
          c.header('cache-control', 'private, max-age=5');
          return c.json(ok(null), 200);
        });
        // One header object shared by every streamed answer (Hono hands a single header on as it is, and
        // node-server adds nothing to it for a stream): the presets are never written into it.
        registerRoute(ctx, route('/api/v1/test/shared-headers'), { auth: 'anonymous' }, (c) => {
          const body = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"code":0}'));
              controller.close();
            },
          });
          // A streamed body is not what the envelope schema types; the route table does not care here.
          return c.body(body, 200, SHARED) as never;
        });
        registerRoute(ctx, route('/api/v1/test/throws'), { auth: 'anonymous' }, () => {
          throw new TypeError('preset-header test');
        });
      },
    });
    running = await listen(t.server, t.server.deps.logger, 'http://127.0.0.1:0');
  });
  afterAll(async () => {
    await running?.shutdown();
  });

  async function get(path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
    const connection = await RawConnection.open(running.url);
    try {
      await connection.request('GET', path, headers);
      return await connection.response();
    } finally {
      connection.close();
    }
  }

  it('writes the trace id and each secure header once on every kind of API answer', async () => {
    const answers = [
      await get('/api/v1/test/plain-answer'),
      await get('/api/v1/ping'), // refused: no token
      await get('/api/v1/ping', { authorization: 'Bearer not.a.token' }),
      await get('/api/v1/no/such/route'),
      await get('/api/v1/test/throws'),
    ];
    expect(answers.map((a) => a.status)).toEqual([200, 401, 401, 404, 500]);
    const ids = new Set<string>();
    for (const answer of answers) {
      const seen = counts(answer);
      expect(seen['x-trace-id']).toBe(1);
      expect(answer.headers['x-trace-id']).toMatch(/^[0-9a-f]{32}$/);
      ids.add(answer.headers['x-trace-id'] as string);
      for (const [name, value] of API_SECURE_HEADERS) {
        expect(seen[name.toLowerCase()]).toBe(1);
        expect(answer.headers[name.toLowerCase()]).toBe(value);
      }
    }
    expect(ids.size).toBe(answers.length);
  });

  it("lets a route's own header win, whatever its spelling, and sends it once", async () => {
    for (const [path, value] of [
      ['/api/v1/test/own-cache', 'private, max-age=60'],
      ['/api/v1/test/own-cache-lower', 'private, max-age=5'],
    ] as const) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(counts(res)['cache-control']).toBe(1);
      expect(res.headers['cache-control']).toBe(value);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('never writes into a header object the route shares, and lets its oddly spelled header win', async () => {
    const first = await get('/api/v1/test/shared-headers');
    const second = await get('/api/v1/test/shared-headers');
    for (const res of [first, second]) {
      expect(counts(res)['cache-control']).toBe(1);
      expect(res.headers['cache-control']).toBe('private, max-age=9');
      expect(counts(res)['x-trace-id']).toBe(1);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
    expect(first.headers['x-trace-id']).not.toBe(second.headers['x-trace-id']);
    expect(Object.keys(SHARED).filter((name) => /trace|referrer|frame|nosniff|options/i.test(name))).toEqual(
      [],
    );
  });

  it('gives paths outside /api the trace id and none of the API headers', async () => {
    const res = await get('/no-such-page');
    expect(counts(res)['x-trace-id']).toBe(1);
    for (const [name] of API_SECURE_HEADERS) expect(res.headers[name.toLowerCase()]).toBeUndefined();
  });
});
