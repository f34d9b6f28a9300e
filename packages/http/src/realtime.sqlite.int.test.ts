/**
 * The realtime hub on one instance (SQLite, in-process cache) with real WebSocket clients: authentication before
 * the upgrade (header or `?access_token=` on the hub only; expired, forged and revoked tokens refused), receivers
 * of `notice-changed` only (published, deleted, restored), `force-logout` and close for every way a session ends, `resync` on `?resume=1`,
 * heartbeat dropping a client that stops answering pings, the per-user bound, masking and the switches; and the
 * slots behind the bounds: an open socket keeps its slot past the handshake timeout (the service clock is moved),
 * a close or a session end frees exactly one, a handshake refused after the reservation frees it at once.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, IncomingMessage, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { ErrorCode } from '@svc/kernel';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ListeningServer, listen } from './host/listen.js';
import { connectHub, type HubClient, hubOf, refusal, refusalOf } from './modules/realtime/client.contract.js';
import { HANDSHAKE_TIMEOUT_MS, HubCloseCode, type RealtimeHub } from './modules/realtime/hub.js';
import { bearer, decodeJwt, json, login, signJwt } from './testing/auth.js';
import {
  grantPermissions,
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from './testing/index.js';

describe('realtime hub on Sqlite with Memory', () => {
  let t: TestServer;
  let running: ListeningServer;
  let admin: Record<string, string>;
  let base: string;
  const users: Record<string, number> = {};

  beforeAll(async () => {
    t = await startTestServer({
      env: {
        Service__Security__RateLimit__Enabled: 'false',
        Service__Realtime__Enabled: 'true',
        Service__Realtime__MaxConnectionsPerUser: '3',
        Service__Realtime__HeartbeatSeconds: '1',
        // The unread bound below is reached by a flood of pings: the bound on frames (its own file,
        // realtime-messages.sqlite.int.test.ts) must not end that flood first.
        Service__Realtime__MessageBurst: '1000000',
      },
    });
    running = await listen(t.server, t.server.deps.logger, 'http://127.0.0.1:0');
    base = running.url;
    admin = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
    for (const name of ['rt_ann', 'rt_ben', 'rt_cid', 'rt_dee', 'rt_eve', 'rt_fay'])
      users[name] = await grantPermissions(t, { account: name, permissions: [] });
  });
  afterAll(async () => {
    await running?.shutdown();
    await t?.close();
  });

  const tokenOf = async (account: string) => (await login(t, account, TEST_USER_PASSWORD)).accessToken;
  const publish = async (body: Record<string, unknown>): Promise<number> => {
    const res = await json(
      await t.request('/api/v1/sys/notice', { json: { type: 1, ...body }, headers: admin }),
    );
    expect(res.code, JSON.stringify(res)).toBe(0);
    return res.data.id;
  };

  it('accepts the token from the header or from ?access_token= and answers ping', async () => {
    const token = await tokenOf('rt_ann');
    for (const inQuery of [false, true]) {
      const client = await connectHub(base, { token, inQuery });
      client.ws.send(JSON.stringify({ type: 'ping' }));
      expect(await client.next()).toEqual({ type: 'pong', data: null });
      client.close();
      await client.closed;
    }
  });

  it('refuses no token, forged, expired and revoked tokens before the upgrade (401)', async () => {
    expect(await refusal(base)).toBe(401);
    expect(await refusal(base, { token: 'not-a-jwt', inQuery: true })).toBe(401);
    const good = await tokenOf('rt_ann');
    const claims = decodeJwt(good);
    const now = Math.floor(Date.now() / 1000);
    const expired = signJwt(
      { alg: 'HS256', typ: 'JWT' },
      { ...claims, iat: now - 7200, exp: now - 600 },
      t.server.jwtKey.key,
    );
    expect(await refusal(base, { token: expired })).toBe(401);
    expect(await refusal(base, { token: expired, inQuery: true })).toBe(401);
    const forged = signJwt({ alg: 'HS256', typ: 'JWT' }, claims, Buffer.alloc(64, 7));
    expect(await refusal(base, { token: forged })).toBe(401);
    // A logged-out session's token still verifies as a JWT but its session is gone.
    const revoked = await tokenOf('rt_ann');
    expect(
      (await json(await t.request('/api/v1/auth/logout', { method: 'POST', headers: bearer(revoked) }))).code,
    ).toBe(0);
    expect(await refusal(base, { token: revoked })).toBe(401);
    expect(await refusal(base, { token: revoked, inQuery: true })).toBe(401);
  });

  it('never accepts ?access_token= outside the hub, and never logs it', async () => {
    const token = await tokenOf('rt_ben');
    for (const path of [
      '/api/v1/sys/notice/unread-count',
      '/api/v1/personal/profile',
      '/api/v1/sys/notice/mine',
    ]) {
      const res = await t.request(`${path}?access_token=${token}`);
      expect(res.status, path).toBe(401);
    }
    // Over the real listener too (the upgrade handling must not leak the query token into other routes).
    const res = await fetch(`${base}/api/v1/sys/notice/unread-count?access_token=${token}`);
    expect(res.status).toBe(401);
    const client = await connectHub(base, { token, inQuery: true });
    client.close();
    await client.closed;
    expect(t.logs.join('\n')).not.toContain(token);
    // An operation-log row of a request carrying the name masks it (masking by name: `access_token`).
    await t.request(`/api/v1/sys/notice/read-all?access_token=${token}`, { method: 'PUT', headers: admin });
    await t.server.logWriters.opLog.drain(5000);
    const rows = await t.server.database.repos.opLogs.page({ size: 50 });
    const text = JSON.stringify(rows.items);
    expect(text).toContain('read-all');
    expect(text).not.toContain(token);
  });

  it('sends notice-changed to receivers only (a later message arrives first for the others)', async () => {
    const ann = await connectHub(base, { token: await tokenOf('rt_ann') });
    const ben = await connectHub(base, { token: await tokenOf('rt_ben') });
    const toAnn = await publish({ title: 'for ann', receiverType: 2, receiverIds: [users.rt_ann] });
    expect(await ann.next()).toEqual({
      type: 'notice-changed',
      data: { noticeId: toAnn, action: 'published' },
    });
    const everyone = await publish({ title: 'for all', receiverType: 0 });
    // Ben's first message is the All notice: the one for Ann never reached him.
    expect(await ben.next()).toEqual({
      type: 'notice-changed',
      data: { noticeId: everyone, action: 'published' },
    });
    expect(await ann.next()).toEqual({
      type: 'notice-changed',
      data: { noticeId: everyone, action: 'published' },
    });
    expect(
      (await json(await t.request(`/api/v1/sys/notice/${toAnn}`, { method: 'DELETE', headers: admin }))).code,
    ).toBe(0);
    expect(await ann.next()).toEqual({
      type: 'notice-changed',
      data: { noticeId: toAnn, action: 'deleted' },
    });
    // Brought back from the recycle bin: its receivers are told again, the others not.
    const restore = `/api/v1/sys/recycle/notice/${toAnn}/restore`;
    expect((await json(await t.request(restore, { method: 'POST', headers: admin }))).code).toBe(0);
    expect(await ann.next()).toEqual({
      type: 'notice-changed',
      data: { noticeId: toAnn, action: 'restored' },
    });
    const later = await publish({ title: 'for all again', receiverType: 0 });
    expect(await ben.next()).toEqual({
      type: 'notice-changed',
      data: { noticeId: later, action: 'published' },
    });
    ann.close();
    ben.close();
  });

  it('sends force-logout and closes the socket for logout, forced logout, disable and password change', async () => {
    const expectKicked = async (client: HubClient) => {
      const message = await client.next();
      expect(message.type).toBe('force-logout');
      expect((await client.closed).code).toBe(HubCloseCode.SessionEnded);
    };
    // Logout of the socket's own session.
    let token = await tokenOf('rt_cid');
    let client = await connectHub(base, { token });
    await t.request('/api/v1/auth/logout', { method: 'POST', headers: bearer(token) });
    await expectKicked(client);

    // Forced logout by an administrator; another session of the same user stays connected.
    token = await tokenOf('rt_cid');
    const other = await connectHub(base, { token: await tokenOf('rt_cid') });
    client = await connectHub(base, { token });
    const sid = decodeJwt(token).sid as string;
    expect(
      (await json(await t.request(`/api/v1/sys/session/${sid}`, { method: 'DELETE', headers: admin }))).code,
    ).toBe(0);
    await expectKicked(client);
    other.ws.send(JSON.stringify({ type: 'ping' }));
    expect((await other.next()).type).toBe('pong');

    // Disabling the user ends every session of theirs.
    const res = await t.request(`/api/v1/sys/user/${users.rt_cid}/enabled`, {
      method: 'PUT',
      json: { enabled: false },
      headers: admin,
    });
    expect((await json(res)).code).toBe(0);
    await expectKicked(other);

    // Password change (own): other sessions end.
    const keep = await tokenOf('rt_dee');
    client = await connectHub(base, { token: await tokenOf('rt_dee') });
    const change = await t.request('/api/v1/personal/password', {
      method: 'PUT',
      json: { oldPassword: TEST_USER_PASSWORD, newPassword: 'Changed#Pass9876' },
      headers: bearer(keep),
    });
    expect((await json(change)).code).toBe(0);
    await expectKicked(client);
  });

  it('tells a client connecting with ?resume=1 to resync, and only that one', async () => {
    const token = await tokenOf('rt_eve');
    const resumed = await connectHub(base, { token, query: 'resume=1' });
    expect(await resumed.next()).toEqual({ type: 'resync', data: null });
    const fresh = await connectHub(base, { token });
    fresh.ws.send(JSON.stringify({ type: 'ping' }));
    expect(await fresh.next()).toEqual({ type: 'pong', data: null });
    resumed.close();
    fresh.close();
    await Promise.all([resumed.closed, fresh.closed]);
  });

  it('answers a refused upgrade with the envelope that says why, not a bare status', async () => {
    const refused = await refusalOf(base);
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body)).toMatchObject({ code: ErrorCode.TokenInvalid.code });
    const token = await tokenOf('rt_fay');
    const open: HubClient[] = [];
    for (let i = 0; i < 3; i++) open.push(await connectHub(base, { token }));
    const over = await refusalOf(base, { token });
    expect(over.status).toBe(429);
    expect(JSON.parse(over.body)).toMatchObject({ code: ErrorCode.TooManyRequests.code });
    for (const c of open) c.close();
    await Promise.all(open.map((c) => c.closed));
  });

  it('bounds connections per user (429 beyond the limit, a slot frees on close)', async () => {
    const token = await tokenOf('rt_eve');
    const open: HubClient[] = [];
    for (let i = 0; i < 3; i++) open.push(await connectHub(base, { token }));
    expect(await refusal(base, { token })).toBe(429);
    // Another user is not affected.
    const ben = await connectHub(base, { token: await tokenOf('rt_ben') });
    ben.close();
    const first = open.shift() as HubClient;
    first.close();
    await first.closed;
    // The server has seen the close once a new connection of that user is accepted: poll the condition.
    const deadline = Date.now() + 10_000;
    let again: HubClient | undefined;
    while (!again && Date.now() < deadline) {
      again = await connectHub(base, { token }).catch(() => undefined);
      if (!again) await new Promise((r) => setImmediate(r));
    }
    expect(again).toBeDefined();
    for (const c of [...open, again as HubClient]) c.close();
  });

  it('closes a socket sending a frame over the limit with 1009, logging no stack to stderr', async () => {
    const printed = vi.spyOn(console, 'error');
    try {
      const client = await connectHub(base, { token: await tokenOf('rt_eve') });
      client.ws.send('x'.repeat(5000));
      expect((await client.closed).code).toBe(1009);
      // The server's socket error came before its close frame: @hono/node-ws printed it (Node 20 has no
      // ErrorEvent) unless the hub takes it.
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
    }
  });

  it('drops a client that stops answering pings', async () => {
    const dead = await connectHub(base, { token: await tokenOf('rt_ben'), autoPong: false });
    const { code } = await dead.closed;
    expect(code).toBe(1006); // terminated, no close frame
  });

  it('drops a client that sends pings but never reads the pongs, instead of queueing them without bound', async () => {
    const token = await tokenOf('rt_ben');
    const before = hubOf(t.server)?.connectionCount() ?? -1;
    // A raw socket: the handshake, then it never reads again (a browser tab cannot do this; a script can).
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    socket.on('error', () => {}); // the server's cut shows as a reset on a later write
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      `GET /hub/realtime HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        `Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n\r\n`,
    );
    const head = await new Promise<string>((resolve) =>
      socket.once('data', (d: Buffer) => resolve(String(d))),
    );
    expect(head).toMatch(/^HTTP\/1\.1 101/);
    socket.pause();
    expect(hubOf(t.server)?.connectionCount()).toBe(before + 1);
    // Masked text frames of {"type":"ping"}; each one asks for a pong the client leaves unread.
    const payload = Buffer.from(JSON.stringify({ type: 'ping' }));
    const mask = Buffer.from([1, 2, 3, 4]);
    const frame = Buffer.concat([
      Buffer.from([0x81, 0x80 | payload.length]),
      mask,
      Buffer.from(payload.map((b, i) => b ^ (mask[i % 4] as number))),
    ]);
    // An unsolicited pong (allowed by RFC 6455) in every batch keeps the heartbeat content: it is not what ends this.
    const pong = Buffer.concat([Buffer.from([0x8a, 0x80]), mask]);
    const batch = Buffer.concat([pong, ...Array.from({ length: 10_000 }, () => frame)]);
    // Kernel buffers take a few MB of pongs first; past them the server must give up on the client. Without a
    // bound it keeps every pong in memory (some 300 MB a million pings) and this loop ends at its cap.
    let sent = 0;
    while (hubOf(t.server)?.connectionCount() !== before && !socket.destroyed && sent < 2_000_000) {
      if (!socket.write(batch)) await new Promise((r) => socket.once('drain', r).once('close', r));
      else await new Promise((r) => setImmediate(r));
      sent += 10_000;
    }
    socket.destroy();
    expect(sent).toBeLessThan(2_000_000);
    // Dropped for what it left unread, not for the pings themselves.
    const log = t.logs.join('\n');
    expect(log).toContain('Hub client dropped: it leaves its messages unread.');
    expect(log).not.toContain('sends more messages than allowed');
    const deadline = Date.now() + 10_000;
    while (hubOf(t.server)?.connectionCount() !== before && Date.now() < deadline)
      await new Promise((r) => setImmediate(r));
    expect(hubOf(t.server)?.connectionCount()).toBe(before);
  });

  it('serves a request whose Upgrade it does not take as plain HTTP, body and answer included', async () => {
    // What `curl --http2` sends (h2c), and a WebSocket upgrade aimed at an API route: both were replayed through the
    // app as a GET without the body, answered with the bare status (a POST login: 404, no body).
    const send = (path: string, headers: Record<string, string>, body?: string) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = request(`${base}${path}`, { method: body === undefined ? 'GET' : 'POST', headers });
        req.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
          });
          res.once('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const h2c = {
      connection: 'Upgrade, HTTP2-Settings',
      upgrade: 'h2c',
      'http2-settings': 'AAMAAABkAAQAoAAAAAIAAAAA',
    };
    const loggedIn = await send(
      '/api/v1/auth/login',
      { ...h2c, 'content-type': 'application/json' },
      JSON.stringify({ account: 'rt_ann', password: TEST_USER_PASSWORD }),
    );
    expect(loggedIn.status).toBe(200);
    const token = (JSON.parse(loggedIn.text) as { code: number; data: { accessToken: string } }).data
      .accessToken;
    const websocket = {
      connection: 'Upgrade',
      upgrade: 'websocket',
      'sec-websocket-version': '13',
      'sec-websocket-key': randomBytes(16).toString('base64'),
      authorization: `Bearer ${token}`,
    };
    for (const headers of [{ ...h2c, authorization: `Bearer ${token}` }, websocket]) {
      const count = await send('/api/v1/sys/notice/unread-count', headers);
      expect(count.status).toBe(200);
      expect(JSON.parse(count.text)).toMatchObject({ code: 0, data: expect.any(Number) });
    }
  });

  it('closes the connection after a request whose Upgrade it did not take, so what was pipelined behind is sent again', async () => {
    // Node's parser stops at a request it was asked to upgrade: a request pipelined behind it in the same packet is
    // never read. The answer says `Connection: close` and the socket ends, instead of the client waiting for an answer
    // that cannot come until the keep-alive timeout.
    const { port } = new URL(base);
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(
      'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n' +
        'HTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\n\r\nGET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    );
    await ended;
    const head = received.split('\r\n\r\n', 1)[0] ?? '';
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head.toLowerCase()).toContain('connection: close');
    // A request without Upgrade keeps its connection.
    const plain = await fetch(`${base}/health`);
    expect(plain.headers.get('connection')).toBe('keep-alive');
  });

  it('the upgrade needs an Upgrade header (426) and the route is not in the API contract', async () => {
    const res = await fetch(`${base}/hub/realtime`);
    expect(res.status).toBe(426);
    expect((await json(res)).code).toBe(48000);
    const doc = (await (await t.request('/openapi/v1.json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).not.toContain('/hub/realtime');
  });
});

describe('realtime hub switched off', () => {
  const variants: Record<string, string>[] = [
    { Service__Realtime__Enabled: 'false' },
    { Service__Realtime__Enabled: 'true', Service__Api__DisabledModules__0: 'Realtime' },
  ];
  for (const env of variants) {
    it(`refuses the upgrade with 404 (${JSON.stringify(env)})`, async () => {
      const t = await startTestServer({ env });
      const running = await listen(t.server, t.server.deps.logger, 'http://127.0.0.1:0');
      try {
        expect(hubOf(t.server)).toBeUndefined();
        const token = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
        expect(await refusal(running.url, { token })).toBe(404);
      } finally {
        await running.shutdown();
        await t.close();
      }
    });
  }
});

describe('realtime hub and access-token expiry', () => {
  it('closes a socket with 4401 at the first heartbeat after its token expired', async () => {
    let offsetMs = 0;
    const t = await startTestServer({
      now: () => new Date(Date.now() + offsetMs),
      env: { Service__Realtime__Enabled: 'true', Service__Realtime__HeartbeatSeconds: '1' },
    });
    const running = await listen(t.server, t.server.deps.logger, 'http://127.0.0.1:0');
    try {
      const token = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
      const client = await connectHub(running.url, { token });
      client.ws.send(JSON.stringify({ type: 'ping' }));
      expect((await client.next()).type).toBe('pong');
      // The service clock moves past the token's expiry; the socket is told to reconnect with a fresh token.
      offsetMs = (decodeJwt(token).exp as number) * 1000 - Date.now() + 60_000;
      expect((await client.closed).code).toBe(HubCloseCode.TokenExpired);
    } finally {
      await running.shutdown();
      await t.close();
    }
  });
});

describe('realtime hub instance bound', () => {
  it('refuses the upgrade with 503 once the instance holds MaxConnections sockets', async () => {
    const t = await startTestServer({
      env: { Service__Realtime__Enabled: 'true', Service__Realtime__MaxConnections: '2' },
    });
    const running = await listen(t.server, t.server.deps.logger, 'http://127.0.0.1:0');
    try {
      const token = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
      const open = [await connectHub(running.url, { token }), await connectHub(running.url, { token })];
      expect(await refusal(running.url, { token })).toBe(503);
      for (const c of open) c.close();
      await Promise.all(open.map((c) => c.closed));
    } finally {
      await running.shutdown();
      await t.close();
    }
  });
});

/**
 * An upgrade request for the hub as Node's parser hands it to an `upgrade` listener, on `socket`, with the five
 * handshake headers and the bearer `token`.
 */
function fakeHubUpgrade(socket: Duplex, token: string): IncomingMessage {
  const req = new IncomingMessage(socket as unknown as Socket);
  req.method = 'GET';
  req.url = '/hub/realtime';
  req.headers = {
    connection: 'Upgrade',
    upgrade: 'websocket',
    authorization: `Bearer ${token}`,
    'sec-websocket-version': '13',
    'sec-websocket-key': randomBytes(16).toString('base64'),
  };
  // What Node's parser sets on a request it hands to `upgrade` (the hub route refuses others with 426).
  Object.assign(req, { upgrade: true });
  return req;
}

/**
 * A test server with the hub on behind a real listener and one user without permissions, whose service clock runs
 * `offsetMs` ahead of the real one: tests move it past timeouts instead of waiting for them.
 */
function hubOnMovingClock(env: Record<string, string>, account: string) {
  const hub = { offsetMs: 0 } as { offsetMs: number; t: TestServer; running: ListeningServer; base: string };
  beforeAll(async () => {
    hub.t = await startTestServer({
      now: () => new Date(Date.now() + hub.offsetMs),
      env: { Service__Security__RateLimit__Enabled: 'false', Service__Realtime__Enabled: 'true', ...env },
    });
    hub.running = await listen(hub.t.server, hub.t.server.deps.logger, 'http://127.0.0.1:0');
    hub.base = hub.running.url;
    await grantPermissions(hub.t, { account, permissions: [] });
  });
  afterAll(async () => {
    await hub.running?.shutdown();
    await hub.t?.close();
  });
  return hub;
}

describe('realtime hub slots over time', () => {
  // The service clock: moved past the handshake timeout instead of waiting for it.
  const hub = hubOnMovingClock(
    { Service__Realtime__MaxConnectionsPerUser: '2', Service__Realtime__MaxConnections: '3' },
    'slot_sue',
  );

  const adminToken = async () => (await login(hub.t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
  const sueToken = async () => (await login(hub.t, 'slot_sue', TEST_USER_PASSWORD)).accessToken;
  /** Open sockets as the server counts them (it sees a client's close in its own time: tests wait for it). */
  const serverCount = () => hubOf(hub.t.server)?.connectionCount() ?? -1;
  /** What the hub holds (slots, upgrades between the route and ws, buckets). */
  const held = () => (hubOf(hub.t.server) as RealtimeHub).held();
  async function until(condition: () => boolean): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error('condition not reached');
      await new Promise((r) => setImmediate(r));
    }
  }
  /** Sockets a test opened; each test starts with none. */
  const clients: HubClient[] = [];
  const open = async (token: string) => {
    const client = await connectHub(hub.base, { token });
    clients.push(client);
    return client;
  };
  afterEach(async () => {
    const left = clients.splice(0);
    for (const c of left) c.close();
    await Promise.all(left.map((c) => c.closed));
    await until(() => serverCount() === 0);
    // Every close gives back what the hub held for the socket.
    await until(() => held().slots === 0 && held().upgrades === 0 && held().buckets === 0);
  });

  /** A handshake ws would refuse (`headers` change the valid ones): its status and body, once the socket is gone. */
  function badHandshake(
    token: string,
    headers: Record<string, string> = { 'sec-websocket-key': 'not-a-key' },
  ): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request(`${hub.base}/hub/realtime`, {
        headers: {
          authorization: `Bearer ${token}`,
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': randomBytes(16).toString('base64'),
          ...headers,
        },
      });
      req.on('upgrade', () => reject(new Error('upgraded')));
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        // Settled once the connection is gone on this side too.
        res.socket.once('close', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('an open socket keeps its slot past the handshake timeout, per user and per instance', async () => {
    const admin = await adminToken();
    await open(admin);
    await open(admin);
    expect(await refusal(hub.base, { token: admin })).toBe(429);
    // Long past the handshake timeout, the user's two sockets still hold their slots.
    hub.offsetMs += HANDSHAKE_TIMEOUT_MS + 1000;
    expect(await refusal(hub.base, { token: admin })).toBe(429);
    hub.offsetMs += 10 * HANDSHAKE_TIMEOUT_MS;
    expect(await refusal(hub.base, { token: admin })).toBe(429);

    // The instance bound (3) the same way: another user fills it, and it stays full.
    const sue = await sueToken();
    await open(sue);
    expect(await refusal(hub.base, { token: sue })).toBe(503);
    hub.offsetMs += HANDSHAKE_TIMEOUT_MS + 1000;
    expect(await refusal(hub.base, { token: sue })).toBe(503);
    expect(serverCount()).toBe(3);

    // Closing one frees exactly one slot: one more opens, the next is refused again.
    (clients[0] as HubClient).close();
    await until(() => serverCount() === 2);
    await open(sue);
    expect(await refusal(hub.base, { token: sue })).toBe(503);
    expect(await refusal(hub.base, { token: admin })).toBe(503);
  });

  it('a session end that closes the socket frees exactly its slot', async () => {
    const admin = await adminToken();
    const ending = await adminToken();
    await open(admin);
    const kicked = await open(ending);
    expect(await refusal(hub.base, { token: admin })).toBe(429);
    await hub.t.request('/api/v1/auth/logout', { method: 'POST', headers: bearer(ending) });
    expect((await kicked.closed).code).toBe(HubCloseCode.SessionEnded);
    await until(() => serverCount() === 1);
    await open(admin);
    expect(await refusal(hub.base, { token: admin })).toBe(429);
  });

  it('a refused handshake keeps no slot', async () => {
    const admin = await adminToken();
    // More refused handshakes than the user's bound, the clock standing still: none keeps a slot.
    for (let i = 0; i < 3; i++) expect((await badHandshake(admin)).status).toBe(400);
    await open(admin);
    await open(admin);
    expect(await refusal(hub.base, { token: admin })).toBe(429);
  });

  it('answers a handshake ws refuses with the envelope (400 48000) and keeps nothing of it', async () => {
    const admin = await adminToken();
    // ws checks the handshake after the route took it (a slot reserved): its refusal comes back as the envelope, and
    // the slot and the request's entry are let go.
    const refused: Record<string, string>[] = [
      { 'sec-websocket-key': 'not-a-key' },
      { 'sec-websocket-version': '12' },
      { 'sec-websocket-protocol': 'chat, chat' },
      { 'sec-websocket-protocol': 'a b' },
    ];
    for (const headers of refused) {
      const { status, body } = await badHandshake(admin, headers);
      expect(status, JSON.stringify(headers)).toBe(400);
      expect(JSON.parse(body), JSON.stringify(headers)).toMatchObject({ code: ErrorCode.ParamInvalid.code });
    }
    await until(() => held().slots === 0 && held().upgrades === 0);
    // A valid protocol list still opens.
    const client = await connectHub(hub.base, { token: admin, protocols: ['svc.v1', 'svc.v2'] });
    client.close();
    await client.closed;
  });

  it('a handshake whose client went away while its token was checked keeps no slot and no waiting upgrade', async () => {
    const admin = await adminToken();
    const realtime = hubOf(hub.t.server) as RealtimeHub;
    const server = createServer();
    realtime.inject(server);
    const [onUpgrade] = server.listeners('upgrade') as ((
      req: IncomingMessage,
      socket: Duplex,
      head: Buffer,
    ) => void)[];
    const sessions = hub.t.server.deps.security.sessions;
    const authenticate = sessions.authenticate.bind(sessions);
    let socket = new Duplex();
    // The client resets its socket while the route reads its session, and its close passes before the route goes on
    // (a database read takes that long): ws then refuses the request on its own, without calling back.
    const checking = vi.spyOn(sessions, 'authenticate').mockImplementation(async (token) => {
      const gone = once(socket, 'close');
      socket.destroy();
      await gone;
      return authenticate(token);
    });
    try {
      // More of them than the user's bound (2), the clock standing still: none may keep a slot.
      for (let i = 0; i < 4; i++) {
        socket = new Duplex({ read() {}, write: (_chunk, _encoding, done) => done() });
        onUpgrade?.(fakeHubUpgrade(socket, admin), socket, Buffer.alloc(0));
        await checking.mock.results[i]?.value;
      }
    } finally {
      checking.mockRestore();
    }
    // The user's two slots are free: both open, the next is refused for the bound.
    await open(admin);
    await open(admin);
    expect(await refusal(hub.base, { token: admin })).toBe(429);
    expect(held()).toMatchObject({ slots: 2, upgrades: 0 });
  });

  it('survives a client that resets its socket while its upgrade is being checked', async () => {
    const server = createServer();
    hubOf(hub.t.server)?.inject(server);
    const [onUpgrade] = server.listeners('upgrade') as ((
      req: IncomingMessage,
      socket: Duplex,
      head: Buffer,
    ) => void)[];
    const socket = new Duplex({
      read() {},
      write(_chunk, _encoding, done) {
        done();
      },
    });
    onUpgrade?.(fakeHubUpgrade(socket, 'x'), socket, Buffer.alloc(0));
    // Node takes its own error listener off a socket it hands to `upgrade`: while the route checks the token, the
    // hub's is the only one, or the reset below would be an unhandled error that ends the process.
    expect(socket.listenerCount('error')).toBeGreaterThan(0);
    socket.emit('error', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
    expect(socket.destroyed).toBe(true);
    expect((await hub.t.request('/health')).status).toBe(200);
  });

  it('a plain request that only carries the Upgrade header is refused (426) without taking a slot', async () => {
    const admin = await adminToken();
    for (let i = 0; i < 3; i++) {
      // No `Connection: Upgrade`: Node answers it as a normal request, which can never become a socket.
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(`${hub.base}/hub/realtime`, {
          headers: { authorization: `Bearer ${admin}`, upgrade: 'websocket' },
        });
        req.on('response', (res) => {
          res.resume();
          res.once('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(426);
    }
    await open(admin);
    await open(admin);
    expect(await refusal(hub.base, { token: admin })).toBe(429);
  });
});

describe('realtime hub and sessions that end without a request', () => {
  // The service clock: moved past the idle timeout and the check interval instead of waiting for them.
  const hub = hubOnMovingClock(
    { Service__Realtime__HeartbeatSeconds: '1', Service__Security__Session__IdleMinutesNormal: '5' },
    'idle_ida',
  );

  const session = async () => {
    const { accessToken } = await login(hub.t, 'idle_ida', TEST_USER_PASSWORD);
    return { token: accessToken, sessionId: String(decodeJwt(accessToken).sid) };
  };

  it('closes the socket of a session whose idle timeout passed, with no request to notice it', async () => {
    const { token, sessionId } = await session();
    const client = await connectHub(hub.base, { token });
    // Live and within the timeout: a check finds nothing (the socket still answers).
    hub.offsetMs += 2 * 60_000;
    client.ws.send(JSON.stringify({ type: 'ping' }));
    expect(await client.next()).toEqual({ type: 'pong', data: null });
    hub.offsetMs += 4 * 60_000;
    // Six minutes without a request: the next heartbeat's check ends the session and its socket.
    expect(await client.next()).toEqual({ type: 'force-logout', data: { reason: 'idle' } });
    expect((await client.closed).code).toBe(HubCloseCode.SessionEnded);
    expect((await hub.t.server.database.repos.sessions.findById(sessionId))?.revokedAt).not.toBeNull();
  });

  it('closes the socket of a session revoked without its end reaching the hub (the broadcast lost)', async () => {
    const { token, sessionId } = await session();
    const client = await connectHub(hub.base, { token });
    // Revoked at the row only, as when the broadcast went to a Redis that was away.
    await hub.t.server.database.repos.sessions.revoke(
      sessionId,
      'forced',
      new Date(Date.now() + hub.offsetMs),
    );
    hub.offsetMs += 61_000;
    expect(await client.next()).toEqual({ type: 'force-logout', data: { reason: 'forced' } });
    expect((await client.closed).code).toBe(HubCloseCode.SessionEnded);
  });

  it('looks the sessions due up in one read, not one a session', async () => {
    const sessions = [await session(), await session(), await session()];
    const clients = await Promise.all(sessions.map(({ token }) => connectHub(hub.base, { token })));
    const repo = hub.t.server.database.repos.sessions;
    const many = vi.spyOn(repo, 'findByIds');
    const one = vi.spyOn(repo, 'findById');
    try {
      for (const { sessionId } of sessions)
        await repo.revoke(sessionId, 'forced', new Date(Date.now() + hub.offsetMs));
      hub.offsetMs += 61_000;
      for (const client of clients)
        expect(await client.next()).toEqual({ type: 'force-logout', data: { reason: 'forced' } });
      expect(many).toHaveBeenCalledTimes(1);
      expect(new Set(many.mock.calls[0]?.[0])).toEqual(new Set(sessions.map((s) => s.sessionId)));
      expect(one).not.toHaveBeenCalled();
    } finally {
      many.mockRestore();
      one.mockRestore();
    }
  });
});
