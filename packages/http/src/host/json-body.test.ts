/**
 * JSON bodies with a declared length are read from Node's request itself (body-limit.ts `readUntouched`), not
 * through node-server's Web `Request`: over a real listener the route, its validation, a later raw read and the
 * operation log all see the same bytes; a body split over several packets arrives whole; a client that hangs up
 * in the middle of its body leaves no request behind; bad bytes still answer 48000. The function itself is also
 * driven on a bare `IncomingMessage`: it leaves a stream someone has begun to read alone.
 */
import { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Socket } from 'node:net';
import { serve } from '@hono/node-server';
import { ok } from '@svc/kernel';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoute, z } from '../index.js';
import { readUntouched, webRequestBuilt } from '../middleware/body-limit.js';
import { registerRoute } from '../openapi/register.js';
import { envelopeResponses } from '../openapi/schemas.js';
import { bearer, login } from '../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/index.js';
import { type ListeningServer, listen } from './listen.js';
import { RawConnection } from './raw-http.contract.js';

/** Requests whose handling has finished, whatever the client saw. */
let settled = 0;
/** How each request's body reached the route: read from Node's request (`rawBody`) or not. */
const readDirectly: boolean[] = [];
/** Whether node-server had built the Web `Headers` of each request when its handler ran. */
const webHeadersBuilt: boolean[] = [];
/** What the handler read through `c.req.header`. */
const headerReads: unknown[] = [];

/** node-server keeps the Web `Headers` it built under a symbol of its own (test-only look). */
const builtHeaders = (raw: Request) =>
  Object.getOwnPropertySymbols(raw).some(
    (s) => s.description === 'headersKey' && (raw as unknown as Record<symbol, unknown>)[s] !== undefined,
  );

async function turnsUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100_000 && !condition(); i++) await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}

describe('JSON bodies read from the Node request', () => {
  let t: TestServer;
  let running: ListeningServer;
  let auth: Record<string, string>;
  beforeAll(async () => {
    t = await startTestServer({
      env: { Service__Logging__OpLog__Sync: 'true' },
      configure: (ctx) => {
        registerRoute(
          ctx,
          createRoute({
            method: 'post',
            path: '/api/v1/test/json-echo',
            summary: 'Echoes a JSON body',
            request: {
              body: {
                required: true,
                content: {
                  'application/json': {
                    schema: z.object({ name: z.string(), password: z.string().optional() }),
                  },
                },
              },
            },
            responses: envelopeResponses(
              z.object({ valid: z.unknown(), raw: z.string(), direct: z.boolean() }),
            ),
          }),
          { auth: 'authenticated' },
          async (c) => {
            webHeadersBuilt.push(builtHeaders(c.req.raw));
            headerReads.push([c.req.header('X-Probe'), c.req.header('content-type')]);
            // The raw Web request asked for after the body was read: node-server serves `rawBody`.
            const raw = await c.req.raw.text();
            readDirectly.push(
              Buffer.isBuffer((c.env?.incoming as { rawBody?: unknown } | undefined)?.rawBody),
            );
            return c.json(ok({ valid: c.req.valid('json'), raw, direct: readDirectly.at(-1) ?? false }), 200);
          },
        );
      },
    });
    auth = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
    const handle = t.server.app.fetch;
    t.server.app.fetch = (...args: Parameters<typeof handle>) =>
      Promise.resolve(handle(...args)).finally(() => {
        settled++;
      });
    running = await listen(t.server, t.server.deps.logger, 'http://127.0.0.1:0');
  });
  afterAll(async () => {
    await running?.shutdown();
    await t?.close();
  });

  const headers = () => ({ ...auth, 'Content-Type': 'application/json' });

  it('gives the route, its validation, a later raw read and the operation log the same body', async () => {
    const body = JSON.stringify({ name: 'Zoë 名前', password: 'Secret-1' });
    const c = await RawConnection.open(running.url);
    await c.request('POST', '/api/v1/test/json-echo', headers(), body);
    const answer = await c.response();
    c.close();
    expect(answer.status).toBe(200);
    const data = JSON.parse(answer.body).data;
    expect(data).toEqual({ valid: { name: 'Zoë 名前', password: 'Secret-1' }, raw: body, direct: true });
    const rows = await t.server.database.repos.opLogs.page({ current: 1, size: 10 });
    const row = rows.items.find((r) => r.path === '/api/v1/test/json-echo');
    expect(row?.paramJson).toContain('Zoë 名前');
    expect(row?.paramJson).not.toContain('Secret-1');
  });

  it('lets validation read Content-Type without building Web Headers; c.req.header() still answers', async () => {
    webHeadersBuilt.length = 0;
    headerReads.length = 0;
    const c = await RawConnection.open(running.url);
    await c.request('POST', '/api/v1/test/json-echo', { ...headers(), 'X-Probe': 'p1' }, '{"name":"h"}');
    expect((await c.response()).status).toBe(200);
    c.close();
    expect(webHeadersBuilt).toEqual([false]);
    expect(headerReads).toEqual([['p1', 'application/json']]);
  });

  it('reads a body that arrives in several packets, and the connection carries the next request', async () => {
    const body = Buffer.from(JSON.stringify({ name: 'x'.repeat(50_000) }));
    const c = await RawConnection.open(running.url);
    const head = [
      'POST /api/v1/test/json-echo HTTP/1.1',
      'Host: localhost',
      ...Object.entries(headers()).map(([k, v]) => `${k}: ${v}`),
      `Content-Length: ${body.length}`,
    ].join('\r\n');
    await c.write(`${head}\r\n\r\n`);
    for (let at = 0; at < body.length; at += 7_000) {
      await c.write(body.subarray(at, at + 7_000));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const first = await c.response();
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body).data.valid.name).toHaveLength(50_000);
    expect(JSON.parse(first.body).data.direct).toBe(true);
    await c.request('POST', '/api/v1/test/json-echo', headers(), '{"name":"again"}');
    const second = await c.response();
    c.close();
    expect(JSON.parse(second.body).data.valid).toEqual({ name: 'again' });
  });

  it('lets a request go when its client hangs up halfway through the body', async () => {
    const before = settled;
    const c = await RawConnection.open(running.url);
    await c.request(
      'POST',
      '/api/v1/test/json-echo',
      { ...headers(), 'Content-Length': '1000' },
      '{"name":"',
    );
    c.socket.destroy();
    await turnsUntil(() => settled > before);
    // The server still answers.
    const d = await RawConnection.open(running.url);
    await d.request('POST', '/api/v1/test/json-echo', headers(), '{"name":"after"}');
    expect((await d.response()).status).toBe(200);
    d.close();
  });

  it('still answers 48000 (HTTP 200, the envelope rule) for bytes that are not UTF-8 and for text that is not JSON', async () => {
    for (const body of [Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), Buffer.from('{"name":')]) {
      const c = await RawConnection.open(running.url);
      await c.request('POST', '/api/v1/test/json-echo', headers(), body);
      const answer = await c.response();
      c.close();
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).code).toBe(48000);
    }
  });
});

describe('readUntouched', () => {
  function message(): IncomingMessage {
    return new IncomingMessage(new Socket());
  }

  it('reads every chunk to the end and leaves the bytes as rawBody', async () => {
    const m = message();
    const read = readUntouched(m, 6);
    m.push(Buffer.from('{"a"'));
    m.push(Buffer.from(':1}'));
    m.push(null);
    const body = await read;
    expect(body?.toString()).toBe('{"a":1}');
    expect((m as IncomingMessage & { rawBody?: Buffer }).rawBody).toBe(body);
    expect(m.listenerCount('data') + m.listenerCount('close') + m.listenerCount('error')).toBe(0);
  });

  it('rejects when the stream closes before its end, and when it fails', async () => {
    const closed = message();
    const early = readUntouched(closed, 10);
    closed.push(Buffer.from('{"a"'));
    closed.destroy();
    await expect(early).rejects.toThrow(/closed after 4 of 10 body bytes/);
    const failing = message();
    const failed = readUntouched(failing, 10);
    failing.destroy(new Error('reset'));
    await expect(failed).rejects.toThrow('reset');
  });

  it('rejects at once a request destroyed before it is read (no end will come)', async () => {
    const gone = message();
    gone.destroy();
    await expect(readUntouched(gone, 10) as Promise<Buffer>).rejects.toThrow(
      /closed before its 10 body bytes/,
    );
  });

  it('leaves alone a stream someone has begun to read, paused or ended, or one already read', async () => {
    const flowing = message();
    flowing.on('data', () => {});
    expect(readUntouched(flowing, 1)).toBeUndefined();
    const paused = message();
    paused.pause();
    expect(readUntouched(paused, 1)).toBeUndefined();
    const done = message();
    done.push(Buffer.from('{}'));
    done.push(null);
    done.read();
    expect(readUntouched(done, 2)).toBeUndefined();
    const again = message();
    const first = readUntouched(again, 2);
    again.push(Buffer.from('{}'));
    again.push(null);
    await first;
    expect(readUntouched(again, 2)).toBeUndefined();
  });
});

describe('webRequestBuilt', () => {
  it("tells whether node-server's full Request (which owns the stream) exists", async () => {
    const seen: boolean[] = [];
    const app = new Hono();
    app.post('/x', (c) => {
      seen.push(webRequestBuilt(c.req.raw));
      void c.req.raw.signal;
      seen.push(webRequestBuilt(c.req.raw));
      return c.text('ok');
    });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/x`, { method: 'POST', body: '{}' });
      expect(await res.text()).toBe('ok');
      expect(seen).toEqual([false, true]);
      // Not node-server's light request at all (`app.request()`): treated as built.
      seen.length = 0;
      await app.request('/x', { method: 'POST', body: '{}' });
      expect(seen[0]).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
