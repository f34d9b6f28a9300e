/**
 * The hub's bound on what a user sends on one instance (`Service:Realtime:MessageBurst` / `MessagesPerSecond`, their
 * defaults), with real WebSocket clients on a service clock that stands still unless a test moves it: a burst past
 * the bucket closes the socket with 1008 and gives its slot back, ignored frames count as much as pings, a client
 * within the rate keeps its socket and its pongs, and a user's sockets share one bucket. Every wait is for a message, a close or the server's count, never a sleep.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ListeningServer, listen } from './host/listen.js';
import { connectHub, type HubClient, hubOf } from './modules/realtime/client.contract.js';
import { HubCloseCode } from './modules/realtime/hub.js';
import { realtimeModule } from './modules/realtime/index.js';
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
  const rate = () => {
    const options = t.server.modules.plan.optionsOf(realtimeModule);
    if (!options) throw new Error('module Realtime is on in this test');
    return options;
  };
  let token = '';
  /**
   * The user's one socket, opened as the console opens it (the token in the query), once the server has seen the
   * previous one close (it does in its own time): the slot that socket held must be free again.
   */
  const open = async (): Promise<HubClient> => {
    const deadline = Date.now() + 10_000;
    while (hubOf(t.server)?.connectionCount() !== 0) {
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
    // The user's bucket outlives their socket until it has refilled: the next test starts with a full one.
    const { MessageBurst: burst, MessagesPerSecond: perSecond } = rate();
    clockMs += Math.ceil((burst * 1000) / perSecond);
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
    // The user's only slot is free again: a new socket opens (not 429), but on the same empty bucket, not a full one
    // (closing and reopening would otherwise be a way round the rate).
    const again = await open();
    again.ws.send(PING);
    expect((await closedInstead(again)).code).toBe(HubCloseCode.TooManyMessages);
    // One refill interval later on the service clock, one frame.
    clockMs += Math.ceil(1000 / rate().MessagesPerSecond);
    const later = await open();
    later.ws.send(PING);
    expect(await later.next()).toEqual({ type: 'pong', data: null });
    later.ws.send(PING);
    expect((await closedInstead(later)).code).toBe(HubCloseCode.TooManyMessages);
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

/**
 * A test server with the hub on behind a real listener, rate limiting off, and `accounts` without permissions, on a
 * service clock that stands still unless a test moves `clockMs`.
 */
function hubOnFrozenClock(env: Record<string, string>, accounts: string[]) {
  const hub = { clockMs: Date.now() } as { clockMs: number; t: TestServer; running: ListeningServer };
  beforeAll(async () => {
    hub.t = await startTestServer({
      now: () => new Date(hub.clockMs),
      env: { Service__Security__RateLimit__Enabled: 'false', Service__Realtime__Enabled: 'true', ...env },
    });
    hub.running = await listen(hub.t.server, hub.t.server.deps.logger, 'http://127.0.0.1:0');
    for (const account of accounts) await grantPermissions(hub.t, { account, permissions: [] });
  });
  afterAll(async () => {
    await hub.running?.shutdown();
    await hub.t?.close();
  });
  return hub;
}

/** Waits (a turn of the event loop at a time, never a sleep) until `condition` holds, or fails after 20 s. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setImmediate(r));
  }
}

describe('realtime hub bound shared by the sockets of one user', () => {
  // The service clock stands still, so no token comes back unless a test moves it.
  const hub = hubOnFrozenClock(
    {
      Service__Realtime__MaxConnectionsPerUser: '2',
      Service__Realtime__MessageBurst: '10',
      Service__Realtime__HeartbeatSeconds: '3600',
    },
    ['msg_max', 'msg_ned'],
  );

  const held = () => hubOf(hub.t.server)?.held() ?? { slots: -1, upgrades: -1, buckets: -1 };
  const pong = async (client: HubClient) => {
    client.ws.send(PING);
    expect(await client.next()).toEqual({ type: 'pong', data: null });
  };
  const closedInstead = async (client: HubClient) => {
    client.ws.send(PING);
    await expect(client.next()).rejects.toThrow(`closed (${HubCloseCode.TooManyMessages})`);
  };

  it("draws every socket of a user on one bucket, kept after the user's last socket until it has refilled", async () => {
    const token = (await login(hub.t, 'msg_max', TEST_USER_PASSWORD)).accessToken;
    const first = await connectHub(hub.running.url, { token });
    const second = await connectHub(hub.running.url, { token, inQuery: true });
    const other = await connectHub(hub.running.url, {
      token: (await login(hub.t, 'msg_ned', TEST_USER_PASSWORD)).accessToken,
    });
    // Six of the burst of ten on the first socket, the other four on the second: its next one is one too many.
    for (let i = 0; i < 6; i++) await pong(first);
    for (let i = 0; i < 4; i++) await pong(second);
    await closedInstead(second);
    expect((await second.closed).code).toBe(HubCloseCode.TooManyMessages);
    // Only the socket that overflowed was closed; the first one shares the empty bucket, so its next is too many.
    expect(first.ws.readyState).toBe(WebSocket.OPEN);
    await closedInstead(first);
    // Another user's bucket is their own.
    for (let i = 0; i < 10; i++) await pong(other);
    // Both of the user's sockets closed: their empty bucket stays, so a new socket does not start with a full one.
    await until(() => hubOf(hub.t.server)?.connectionCount() === 1 && held().buckets === 2);
    const again = await connectHub(hub.running.url, { token });
    await closedInstead(again);
    // A second later (10 a second), the burst is back: the next socket may send it.
    hub.clockMs += 1000;
    const later = await connectHub(hub.running.url, { token });
    for (let i = 0; i < 10; i++) await pong(later);
    // Closed once refilled, both users' buckets are forgotten with their last sockets.
    hub.clockMs += 1000;
    later.close();
    other.close();
    await Promise.all([later.closed, other.closed]);
    await until(() => hubOf(hub.t.server)?.connectionCount() === 0 && held().buckets === 0);
  });
});

describe('realtime hub buckets of users gone from the instance', () => {
  const hub = hubOnFrozenClock(
    {
      Service__Realtime__MessageBurst: '2',
      Service__Realtime__MessagesPerSecond: '1',
      // The heartbeat is what forgets a bucket refilled after its user left.
      Service__Realtime__HeartbeatSeconds: '1',
    },
    ['msg_kim'],
  );

  const buckets = () => hubOf(hub.t.server)?.held().buckets ?? -1;

  it('forgets the bucket of a user with no socket once it has refilled, at a heartbeat', async () => {
    const token = (await login(hub.t, 'msg_kim', TEST_USER_PASSWORD)).accessToken;
    const client = await connectHub(hub.running.url, { token });
    client.ws.send(PING);
    expect(await client.next()).toEqual({ type: 'pong', data: null });
    client.close();
    await client.closed;
    await until(() => hubOf(hub.t.server)?.connectionCount() === 0);
    // Short of its burst when the socket closed (the ping, and the client's pong if a heartbeat came): kept.
    expect(buckets()).toBe(1);
    // Two seconds later on the service clock (1 a second, a burst of 2) it has refilled; a heartbeat lets it go.
    hub.clockMs += 2000;
    await until(() => buckets() === 0);
  });
});
