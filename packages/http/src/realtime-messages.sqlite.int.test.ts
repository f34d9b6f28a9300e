/**
 * The hub's bound on what one socket sends (`Service:Realtime:MessageBurst` / `MessagesPerSecond`, their defaults),
 * with real WebSocket clients on a service clock that stands still unless a test moves it: a burst past the bucket
 * closes the socket with 1008 and gives its slot back, ignored frames count as much as pings, and a client within
 * the rate keeps its socket and its pongs. Every wait is for a message, a close or the server's count, never a sleep.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ListeningServer, listen } from './host/listen.js';
import { connectHub, type HubClient } from './realtime/client.contract.js';
import { HubCloseCode } from './realtime/hub.js';
import { login } from './testing/auth.js';
import { grantPermissions, startTestServer, TEST_USER_PASSWORD, type TestServer } from './testing/index.js';

const PING = JSON.stringify({ type: 'ping' });
const OVER_LIMIT = 'Hub client closed: it sends more messages than allowed.';

describe('realtime hub bound on client messages', () => {
  let t: TestServer;
  let running: ListeningServer;
  let userId: number;
  /** The service clock (ms): frozen, moved by the tests only. */
  let clockMs = Date.now();

  beforeAll(async () => {
    t = await startTestServer({
      now: () => new Date(clockMs),
      env: {
        Service__Security__RateLimit__Enabled: 'false',
        Service__Realtime__Enabled: 'true',
        // One socket a user: a socket closed for its messages must give its slot back for the next to open.
        Service__Realtime__MaxConnectionsPerUser: '1',
        // No heartbeat during a test: the client's pong to it would take a token the tests count on.
        Service__Realtime__HeartbeatSeconds: '3600',
      },
    });
    running = await listen(t.server, t.server.deps.logger, 'http://127.0.0.1:0');
    userId = await grantPermissions(t, { account: 'msg_mia', permissions: [] });
  });
  afterAll(async () => {
    await running?.shutdown();
    await t?.close();
  });

  /** The defaults (60 at once, 10 a second): the tests follow whatever ships. */
  const rate = () => t.server.deps.config.service.Realtime;
  let token = '';
  /**
   * The user's one socket, opened as the console opens it (the token in the query), once the server has seen the
   * previous one close (it does in its own time): the slot that socket held must be free again.
   */
  const open = async (): Promise<HubClient> => {
    const deadline = Date.now() + 10_000;
    while (t.server.realtime?.connectionCount() !== 0) {
      if (Date.now() > deadline) throw new Error('the previous socket is still open');
      await new Promise((r) => setImmediate(r));
    }
    token = (await login(t, 'msg_mia', TEST_USER_PASSWORD)).accessToken;
    const client = await connectHub(running.url, { token, inQuery: true });
    clients.push(client);
    return client;
  };
  /** Sockets a test opened: whatever a test left open (a failed one) is closed before the next. */
  const clients: HubClient[] = [];
  afterEach(async () => {
    const left = clients.splice(0);
    for (const c of left) c.close();
    await Promise.all(left.map((c) => c.closed));
  });
  /** The close the server sent next, instead of any further message (a message fails the test at once). */
  const closedInstead = async (client: HubClient) => {
    await expect(client.next()).rejects.toThrow(`closed (${HubCloseCode.TooManyMessages})`);
    return client.closed;
  };
  const warnings = () => t.logs.filter((line) => line.includes(OVER_LIMIT));

  it('closes a socket sending more than its burst at once with 1008, logs it once and frees its slot', async () => {
    const { MessageBurst: burst } = rate();
    const before = warnings().length;
    const client = await open();
    // The clock stands still: no token comes back. Ten more after the one too many, as a flood would send.
    for (let i = 0; i < burst + 11; i++) client.ws.send(PING);
    for (let i = 0; i < burst; i++) expect(await client.next()).toEqual({ type: 'pong', data: null });
    expect(await closedInstead(client)).toEqual({
      code: HubCloseCode.TooManyMessages,
      reason: 'too many messages',
    });
    const logged = warnings().slice(before);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(`"userId":${userId}`);
    expect(logged[0]).not.toContain(token);
    // The user's only slot is free again: a new socket opens (not 429) and is answered.
    const again = await open();
    again.ws.send(PING);
    expect(await again.next()).toEqual({ type: 'pong', data: null });
  });

  it('counts the frames it ignores (binary, not JSON, unknown types, pings) as much as its own pings', async () => {
    const { MessageBurst: burst } = rate();
    const client = await open();
    for (let i = 0; i <= burst; i++) {
      if (i % 4 === 0) client.ws.send(Buffer.from([1, 2, 3]));
      else if (i % 4 === 1) client.ws.send('not json');
      else if (i % 4 === 2) client.ws.send(JSON.stringify({ type: 'other' }));
      else client.ws.ping();
    }
    // Within the rate it would be answered; past the bucket the socket closes first.
    client.ws.send(PING);
    expect((await closedInstead(client)).code).toBe(HubCloseCode.TooManyMessages);
  });

  it('keeps a client within the rate open and answered, up to the last frame the bucket holds', async () => {
    const { MessageBurst: burst, MessagesPerSecond: perSecond } = rate();
    const client = await open();
    const ping = async () => {
      client.ws.send(PING);
      expect(await client.next()).toEqual({ type: 'pong', data: null });
    };
    for (let i = 0; i < burst; i++) await ping();
    // The burst spent, three times as many more, each one refill interval later on the service clock.
    for (let i = 0; i < 3 * burst; i++) {
      clockMs += Math.ceil(1000 / perSecond);
      await ping();
    }
    expect(client.ws.readyState).toBe(WebSocket.OPEN);
    // It was at the edge: one more with the clock standing still is one too many.
    client.ws.send(PING);
    expect((await closedInstead(client)).code).toBe(HubCloseCode.TooManyMessages);
  });
});
