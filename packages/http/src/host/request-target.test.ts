/**
 * Requests node-server cannot build a Web request of get the 48000 envelope, not its bare `400 text/plain`: a
 * target that is not a path, a backslash in the path, a missing or unparsable Host. What it accepts still works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_SECURE_HEADERS } from '../middleware/secure-headers.js';
import { startTestServer, type TestServer } from '../testing/index.js';
import { type ListeningServer, listen } from './listen.js';
import { RawConnection } from './raw-http.contract.js';
import { hostAccepted } from './request-target.js';

describe('request targets node-server refuses', () => {
  let t: TestServer;
  let running: ListeningServer;
  beforeAll(async () => {
    t = await startTestServer();
    running = await listen(t.server, t.server.deps.logger, 'http://127.0.0.1:0');
  });
  afterAll(async () => {
    await running?.shutdown();
    await t?.close();
  });

  /** Sends a request line and headers exactly as given; answers the response. */
  async function send(target: string, host: string | undefined) {
    const c = await RawConnection.open(running.url);
    const lines = [
      // HTTP/1.0 without a Host (a load balancer's health check); HTTP/1.1 requires one (Node refuses it first).
      `GET ${target} ${host === undefined ? 'HTTP/1.0' : 'HTTP/1.1'}`,
      ...(host === undefined ? [] : [`Host: ${host}`]),
      'Connection: close',
    ];
    await c.write(`${lines.join('\r\n')}\r\n\r\n`);
    try {
      return await c.response();
    } finally {
      c.close();
    }
  }

  it.each([
    ['an asterisk target', '*', 'localhost'],
    ['a backslash in the path', '/api\\v1/ping', 'localhost'],
    ['a Host with a space', '/health', 'a b'],
    ['a Host with a path', '/health', 'x/y?z'],
  ])('answers %s with 400 and the 48000 envelope', async (_, target, host) => {
    const res = await send(target, host);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-trace-id']).toBeTruthy();
    expect(JSON.parse(res.body)).toMatchObject({ code: 48000 });
    // The API's secure headers: an error answer is no more cacheable or frameable than any other.
    for (const [name, value] of API_SECURE_HEADERS) expect(res.headers[name.toLowerCase()]).toBe(value);
  });

  it('still serves what node-server accepts: a backslash in the query, an absolute URL, an upper-case Host', async () => {
    for (const [target, host] of [
      ['/health?x=a\\b', 'localhost'],
      ['http://localhost/health', 'localhost'],
      ['/health', 'LOCALHOST'],
      ['/health', '[::1]:5100'],
      ['/health', 'localhost:5100'],
      ['/health', undefined],
    ] as const) {
      const res = await send(target, host);
      expect(res.status, `${target} ${host}`).toBe(200);
    }
  });

  it('tells hosts apart as node-server does', () => {
    expect(hostAccepted('example.com:8080')).toBe(true);
    expect(hostAccepted('a b')).toBe(false);
    expect(hostAccepted('x/y')).toBe(false);
    expect(hostAccepted('user@host')).toBe(false);
  });
});
