import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { type AppEnv, announcesBody } from './context.js';

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
