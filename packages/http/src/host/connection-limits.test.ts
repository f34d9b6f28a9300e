/**
 * The listener's idle timeout (`Service:Server:IdleTimeoutSeconds`, 1 s here) over real sockets: a connection
 * that never sends a request and one whose body stops arriving are closed; a request the service is still working
 * on when the timeout passes is answered, and a quiet WebSocket of the hub stays open. No test sleeps: the close
 * of a silent socket is the event that shows the timeout has passed, and the other connections are checked after
 * it (they went quiet before it was opened). Without the timeout the silent socket is never closed and the tests
 * fail at their own timeout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoute, z } from '../index.js';
import { connectHub } from '../modules/realtime/client.contract.js';
import { registerRoute } from '../openapi/register.js';
import { login } from '../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/index.js';
import { idleVerdict } from './connection-limits.js';
import { type ListeningServer, listen } from './listen.js';
import { heldGate, RawConnection } from './raw-http.contract.js';

const hold = heldGate();

describe('idle and stalled connections', () => {
  let t: TestServer;
  let running: ListeningServer;
  beforeAll(async () => {
    t = await startTestServer({
      env: {
        Service__Server__IdleTimeoutSeconds: '1',
        Service__Security__RateLimit__Enabled: 'false',
        Service__Realtime__Enabled: 'true',
        // No hub pings during the test: the WebSocket stays quiet.
        Service__Realtime__HeartbeatSeconds: '3600',
      },
      configure: (ctx) => {
        registerRoute(
          ctx,
          createRoute({
            method: 'get',
            path: '/api/v1/test/slow',
            responses: { 200: { description: 'Done', content: { 'text/plain': { schema: z.string() } } } },
          }),
          { auth: 'anonymous', skipEnvelope: true },
          async (c) => {
            await hold.pass();
            return c.text('done', 200);
          },
        );
      },
    });
    running = await listen(t.server, t.server.deps.logger, 'http://127.0.0.1:0');
  });
  afterAll(async () => {
    hold.open();
    await running?.shutdown();
    await t?.close();
  });

  it('closes a connection that never sends a request', async () => {
    const silent = await RawConnection.open(running.url);
    await silent.closed;
    expect(silent.closedByPeer).toBe(true);
  });

  it('closes a connection whose request body stops arriving', async () => {
    const stalled = await RawConnection.open(running.url);
    await stalled.write(
      'POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"account":',
    );
    await stalled.closed;
    expect(stalled.closedByPeer).toBe(true);
  });

  it('answers a request the service works on past the idle timeout', async () => {
    const busy = await RawConnection.open(running.url);
    await busy.request('GET', '/api/v1/test/slow');
    await hold.until((entered) => entered === 1);
    // Opened after the slow request went quiet: once it is closed, the slow one was quiet for longer.
    const silent = await RawConnection.open(running.url);
    await silent.closed;
    hold.open();
    const res = await busy.response();
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('done');
  });

  it('keeps a quiet WebSocket open past the idle timeout', async () => {
    const { accessToken } = await login(t, 'superAdmin', TEST_ADMIN_PASSWORD);
    const hub = await connectHub(running.url, { token: accessToken });
    try {
      const silent = await RawConnection.open(running.url);
      await silent.closed;
      const pong = new Promise<'pong'>((resolve) => hub.ws.once('pong', () => resolve('pong')));
      hub.ws.ping();
      expect(await Promise.race([pong, hub.closed.then(() => 'closed')])).toBe('pong');
    } finally {
      hub.close();
    }
  });

  it('keeps a socket whose request the service still answers, closes one waiting for the client', () => {
    const socket = (fields: object) => fields as Parameters<typeof idleVerdict>[0];
    expect(idleVerdict(socket({ _httpMessage: null, writableLength: 0 }))).toBe('close');
    const working = { req: { complete: true } };
    expect(idleVerdict(socket({ _httpMessage: working, writableLength: 0 }))).toBe('keep');
    expect(idleVerdict(socket({ _httpMessage: working, writableLength: 65_536 }))).toBe('close');
    const receiving = { req: { complete: false } };
    expect(idleVerdict(socket({ _httpMessage: receiving, writableLength: 0 }))).toBe('close');
  });
});

/**
 * The headers timeout (`Service:Server:HeadersTimeoutSeconds`, 1 s here, the idle timeout far above it): a
 * connection that sends nothing, as a browser's pre-connection, is closed with no answer at all (contract §11;
 * it used to get an unrequested 400 envelope); one that sent part of a request line gets 408. The close event
 * ends each wait.
 */
describe('the headers timeout', () => {
  let t: TestServer;
  let running: ListeningServer;
  beforeAll(async () => {
    t = await startTestServer({
      env: { Service__Server__HeadersTimeoutSeconds: '1', Service__Server__IdleTimeoutSeconds: '600' },
    });
    running = await listen(t.server, t.server.deps.logger, 'http://127.0.0.1:0');
  });
  afterAll(async () => {
    await running?.shutdown();
    await t?.close();
  });

  async function received(connection: RawConnection): Promise<string> {
    const chunks: Buffer[] = [];
    connection.socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    await connection.closed;
    return Buffer.concat(chunks).toString('latin1');
  }

  it('closes a connection that sends nothing without writing anything to it', async () => {
    const silent = await RawConnection.open(running.url);
    expect(await received(silent)).toBe('');
    expect(silent.errors).toEqual([]);
  });

  it('answers a partial request line with 408 and the envelope, then closes', async () => {
    const partial = await RawConnection.open(running.url);
    const text = received(partial);
    await partial.write('GET /api/v1/ping HT');
    const answer = await text;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('Connection: close');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).code).toBe(48000);
  });
});
