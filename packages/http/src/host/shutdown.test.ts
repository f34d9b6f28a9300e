/**
 * Graceful shutdown over real sockets (issue 11): once shutdown starts, idle keep-alive connections are closed
 * at once, requests in flight finish (none is cut) and their responses carry `Connection: close`, after which
 * the server closes those connections too, so no new request can arrive on them during the drain. Requests
 * are held in flight by a gate the test opens; nothing waits on a clock.
 */
import { ok } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoute, z } from '../index.js';
import { registerRoute } from '../openapi/register.js';
import { envelopeResponses } from '../openapi/schemas.js';
import { startTestServer, type TestServer } from '../testing/index.js';
import { listen } from './listen.js';
import { heldGate, RawConnection } from './raw-http.contract.js';

const hold = heldGate();

describe('graceful shutdown', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      // A generous drain: the test opens the gate itself, the deadline must never be what ends a request.
      env: { Service__Shutdown__DrainSeconds: '120' },
      configure: (ctx) => {
        registerRoute(
          ctx,
          createRoute({ method: 'get', path: '/api/v1/test/fast', responses: envelopeResponses(z.null()) }),
          { auth: 'anonymous' },
          (c) => c.json(ok(null), 200),
        );
        registerRoute(
          ctx,
          createRoute({ method: 'get', path: '/api/v1/test/hold', responses: envelopeResponses(z.null()) }),
          { auth: 'anonymous' },
          async (c) => {
            await hold.pass();
            return c.json(ok(null), 200);
          },
        );
      },
    });
  });
  afterAll(() => t?.close());

  it('closes idle keep-alive sockets at once, finishes in-flight requests with Connection: close, cuts none', async () => {
    const running = await listen(t.server, t.server.deps.logger, 'http://127.0.0.1:0');
    const idle = await Promise.all([1, 2, 3].map(() => RawConnection.open(running.url)));
    for (const c of idle) {
      await c.request('GET', '/api/v1/test/fast');
      const res = await c.response();
      expect(res.status).toBe(200);
      expect(res.headers.connection ?? 'keep-alive').not.toBe('close');
    }
    const held = await Promise.all([1, 2, 3, 4].map(() => RawConnection.open(running.url)));
    for (const c of held) await c.request('GET', '/api/v1/test/hold');
    await hold.until((entered) => entered === 4);

    const stopping = running.shutdown();
    // Idle connections go before any held request is let through.
    await Promise.all(idle.map((c) => c.closed));
    expect(hold.entered).toBe(4);

    hold.open();
    const answers = await Promise.all(held.map((c) => c.response()));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((a) => a.headers.connection)).toEqual(['close', 'close', 'close', 'close']);
    // The server closes each connection after its last response: none can carry a new request.
    await Promise.all(held.map((c) => c.closed));
    await stopping;
    const cut = held.filter((c) => c.errors.length > 0).length + (4 - answers.length);
    expect(cut).toBe(0);
  });
});
