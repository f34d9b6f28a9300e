import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { type AppEnv, announcesBody, rawHeader } from './context.js';

/** What `announcesBody` answers for a POST with these raw Node headers (HTTP version `major`) and Web body. */
async function announced(headers: Record<string, string>, major: number, webBody: string | null) {
  const app = new Hono<AppEnv>();
  app.post('/', (c) => c.json({ announced: announcesBody(c) }));
  const incoming = { headers, httpVersionMajor: major };
  const response = await app.request(
    '/',
    { method: 'POST', ...(webBody === null ? {} : { body: webBody }) },
    {
      incoming,
    },
  );
  return ((await response.json()) as { announced: boolean }).announced;
}

describe('announcesBody', () => {
  it('reads HTTP/1.x framing from the raw headers: a length other than 0 or chunking, and nothing else', async () => {
    expect(await announced({ 'content-length': '12' }, 1, null)).toBe(true);
    expect(await announced({ 'transfer-encoding': 'chunked' }, 1, null)).toBe(true);
    expect(await announced({ 'content-length': '0' }, 1, 'ignored')).toBe(false);
    // Neither header: no body on HTTP/1.1, whatever the Web request would claim.
    expect(await announced({}, 1, 'ignored')).toBe(false);
  });

  it('asks the Web request on HTTP/2, whose frames carry a body without either header', async () => {
    expect(await announced({}, 2, '{"a":1}')).toBe(true);
    expect(await announced({}, 2, null)).toBe(false);
  });
});

describe('rawHeader', () => {
  it("answers what Node's header object holds, for repeated, single and cookie headers in any case", () => {
    const raw = [
      'Host',
      'a.example',
      'X-Forwarded-For',
      '203.0.113.1',
      'host',
      'b.example',
      'x-forwarded-for',
      '198.51.100.2',
      'X-Api-Key',
      'k1',
      'Cookie',
      'a=1',
      'AUTHORIZATION',
      'Bearer one',
      'x-api-key',
      'k2',
      'cookie',
      'b=2',
      'Authorization',
      'Bearer two',
      'Content-Type',
      'application/json',
    ];
    // Node's own parse of the same list (what the parser calls for a real request).
    const node = new IncomingMessage(new Socket()) as IncomingMessage & {
      _addHeaderLines(headers: string[], n: number): void;
    };
    node._addHeaderLines(raw, raw.length);
    const names = [
      'host',
      'x-forwarded-for',
      'x-api-key',
      'cookie',
      'authorization',
      'content-type',
      'x-none',
    ];
    for (const name of names)
      expect([name, rawHeader({ rawHeaders: raw }, name)]).toEqual([name, node.headers[name]]);
  });
});
