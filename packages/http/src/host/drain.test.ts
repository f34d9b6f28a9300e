/**
 * The drain at shutdown never cuts a response that has ended but is still being written (review of issue 16):
 * a 32 MB answer whose handler returns during the drain arrives whole, with `Connection: close`, and the server
 * then closes the connection. A sweep of "idle" connections right after `end()` would destroy this socket: Node
 * counts a connection whose response has ended as idle although its bytes are still queued.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoute, z } from '../index.js';
import { registerRoute } from '../openapi/register.js';
import { startTestServer, type TestServer } from '../testing/index.js';
import { listen } from './listen.js';
import { heldGate, RawConnection } from './raw-http.contract.js';

const BIG = 'x'.repeat(32 * 1024 * 1024);

const hold = heldGate();

describe('drain with a large answer in flight', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      env: { Service__Shutdown__DrainSeconds: '120' },
      configure: (ctx) => {
        registerRoute(
          ctx,
          createRoute({
            method: 'get',
            path: '/api/v1/test/big',
            responses: {
              200: { description: 'A large text', content: { 'text/plain': { schema: z.string() } } },
            },
          }),
          { auth: 'anonymous', skipEnvelope: true },
          async (c) => {
            await hold.pass();
            return c.text(BIG, 200);
          },
        );
      },
    });
  });
  afterAll(() => t?.close());

  it('writes the whole answer of a request that ends during the drain, then closes its connection', async () => {
    const running = await listen(t.server, t.server.deps.logger, 'http://127.0.0.1:0');
    const connection = await RawConnection.open(running.url);
    await connection.request('GET', '/api/v1/test/big');
    await hold.until((entered) => entered === 1);
    const stopping = running.shutdown();
    hold.open();
    const res = await connection.response();
    expect(res.status).toBe(200);
    expect(res.headers.connection).toBe('close');
    expect(res.body.length).toBe(BIG.length);
    await connection.closed;
    expect(connection.errors).toEqual([]);
    await stopping;
  }, 60_000);
});
