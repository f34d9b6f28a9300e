/**
 * Graceful shutdown over real sockets (issue 11, contract §11 "drain without resets"): once the drain starts the
 * listener accepts no new connection, requests in flight finish (none is cut) and their responses carry
 * `Connection: close`, after which the server closes those connections. An idle keep-alive connection is not
 * closed under the client: a request sent on it during the drain is answered, with `Connection: close`.
 * `Service:Shutdown:DelaySeconds` keeps serving normally before the drain. Requests are held in flight by a gate
 * the test opens.
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

  it('answers requests sent on idle keep-alive sockets during the drain, finishes in-flight ones, cuts none', async () => {
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
    // The listener accepts nothing new...
    await expect(RawConnection.open(running.url)).rejects.toThrow(/ECONNREFUSED/);
    // ...but a request a client sends on an idle keep-alive connection now is answered, not reset.
    for (const c of idle) await c.request('GET', '/api/v1/test/fast');
    const late = await Promise.all(idle.map((c) => c.response()));
    expect(late.map((a) => [a.status, a.headers.connection])).toEqual([
      [200, 'close'],
      [200, 'close'],
      [200, 'close'],
    ]);
    await Promise.all(idle.map((c) => c.closed));
    expect(hold.entered).toBe(4);

    hold.open();
    const answers = await Promise.all(held.map((c) => c.response()));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((a) => a.headers.connection)).toEqual(['close', 'close', 'close', 'close']);
    // The server closes each connection after its last response: none can carry a new request.
    await Promise.all(held.map((c) => c.closed));
    await stopping;
    const cut = [...idle, ...held].filter((c) => c.errors.length > 0).length + (4 - answers.length);
    expect(cut).toBe(0);
  });
});

describe('graceful shutdown with Service:Shutdown:DelaySeconds', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      env: { Service__Shutdown__DelaySeconds: '2', Service__Shutdown__DrainSeconds: '120' },
      configure: (ctx) =>
        registerRoute(
          ctx,
          createRoute({ method: 'get', path: '/api/v1/test/fast', responses: envelopeResponses(z.null()) }),
          { auth: 'anonymous' },
          (c) => c.json(ok(null), 200),
        ),
    });
  });
  afterAll(() => t?.close());

  it('keeps accepting and answering as before for the delay, then drains', async () => {
    const running = await listen(t.server, t.server.deps.logger, 'http://127.0.0.1:0');
    const stopping = running.shutdown();
    // Within the delay a new connection is accepted and kept alive, as a load balancer still routing here needs.
    const fresh = await RawConnection.open(running.url);
    await fresh.request('GET', '/api/v1/test/fast');
    const during = await fresh.response();
    expect([during.status, during.headers.connection ?? 'keep-alive']).toEqual([200, 'keep-alive']);
    expect(fresh.errors).toEqual([]);
    // A client leaving its idle connection is what ends the drain here (the keep-alive timeout would, later).
    fresh.socket.end();
    await stopping;
    await expect(RawConnection.open(running.url)).rejects.toThrow(/ECONNREFUSED/);
  });
});
