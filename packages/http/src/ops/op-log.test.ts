/**
 * The operation-log stage's row, on a small Hono app with the body limit before it and a writer that keeps what it
 * is given: which parameter texts wait for the row's batch (small, cheap ones) and which are written and capped in
 * the request's turn (body objects, long texts, texts with something to mask), so that a queue that fills while
 * the database is away never holds a whole request body.
 */
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { ErrorCodeRegistry } from '@svc/kernel';
import { DEFAULT_MASKING, finishOpLogRows, type OpLogEntry, type OpLogWriter } from '@svc/logging';
import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AppEnv } from '../context.js';
import { jsonBodyLimit } from '../middleware/body-limit.js';
import { createPipeline } from '../middleware/pipeline.js';
import { MATCH_RESULT, opLog, routeAtIndex } from './op-log.js';

const MAX = 1024;

let lastAnswer: unknown;

/** How the stage runs: as Hono middleware (`run`), or as the app runs it, `enter` and `leave` in the pipeline. */
type Form = 'middleware' | 'pipeline';
let form: Form = 'middleware';

function app() {
  const rows: OpLogEntry[] = [];
  const writer = {
    enqueue: (row: OpLogEntry) => rows.push(row) > 0,
    write: async (row: OpLogEntry) => {
      rows.push(row);
    },
  } as unknown as OpLogWriter;
  const hono = new OpenAPIHono<AppEnv>();
  hono.use('/api/*', jsonBodyLimit({ maxBytes: 4 * 1024 * 1024, errors: new ErrorCodeRegistry() }));
  hono.use('/api/*', async (c, next) => {
    c.set('principal', { kind: 'user', userId: 1, account: 'bob' } as never);
    await next();
  });
  const stage = opLog({
    writer,
    paramMaxChars: MAX,
    resolveClientIp: () => '10.0.0.1',
    app: hono,
    now: () => new Date(0),
  });
  const pipeline = createPipeline({
    quick: () => true,
    first: async (_c, next) => next(),
    stages: [{ applies: stage.applies, run: stage.run, enter: stage.enter, leave: stage.leave }],
    onError: (error, c) => c.json({ code: 50000, message: error.message, data: null }, 500),
  });
  hono.use('/api/*', form === 'middleware' ? stage.run : pipeline.middleware);
  hono.put('/api/v1/x/:id', (c) => c.json({ code: 0, message: 'ok', data: null }));
  // A route that reads its JSON body (twice: each read is a value of its own) and answers 48000 when it is not JSON.
  hono.put('/api/v1/read/:id', async (c) => {
    try {
      const [first, second] = [await c.req.json(), await c.req.json()];
      return c.json({
        code: 0,
        message: 'ok',
        data: { same: first === second, equal: JSON.stringify(first) === JSON.stringify(second) },
      });
    } catch {
      return c.json({ code: 48000, message: 'not JSON', data: null }, 400);
    }
  });
  // A route validated as the built-in ones are: its JSON body read by @hono/zod-openapi's validator.
  hono.openapi(
    createRoute({
      method: 'put',
      path: '/api/v1/valid/{id}',
      request: {
        params: z.object({ id: z.string() }),
        body: { content: { 'application/json': { schema: z.object({ name: z.string() }) } } },
      },
      responses: { 200: { description: 'ok' } },
    }),
    (c) => c.json({ code: 0, message: 'ok', data: c.req.valid('json') }, 200),
  );
  const put = async (body: RequestInit['body'], type?: string, path = '/api/v1/x/7', status = 200) => {
    const res = await hono.request(path, {
      method: 'PUT',
      ...(type ? { headers: { 'content-type': type } } : {}),
      body,
    });
    expect(res.status).toBe(status);
    const row = rows.at(-1) as OpLogEntry;
    lastAnswer = await res.json().catch(() => undefined);
    return row;
  };
  return { put, rows };
}

describe.each<Form>(['middleware', 'pipeline'])(
  'operation-log stage (%s): what waits for the batch',
  (how) => {
    beforeEach(() => {
      form = how;
    });

    it('leaves a small JSON body with nothing to mask, and the path parameters, for the batch', async () => {
      const { put } = app();
      const row = await put('{"name":"a","sort":1}', 'application/json');
      expect(row.paramJson).toBeNull();
      // Nothing to mask (found now); whether it is JSON is left to the batch: this route never read its body.
      expect(row.pendingParams).toEqual({
        params: { id: '7' },
        bodyJson: '{"name":"a","sort":1}',
        bodyJsonKnown: { clean: true },
        masking: DEFAULT_MASKING,
        maxChars: MAX,
      });
      finishOpLogRows([row]);
      expect(row.paramJson).toBe('{"params":{"id":"7"},"body":{"name":"a","sort":1}}');
      expect(row.pendingParams).toBeUndefined();
    });

    it('lets the batch skip the JSON check only for a text the route itself parsed', async () => {
      const { put } = app();
      // Read by the route: known to be JSON; each read still gives a value of its own, as Hono's does.
      const read = await put(' {"name":"a"} ', 'application/json', '/api/v1/read/3');
      expect(lastAnswer).toMatchObject({ data: { same: false, equal: true } });
      expect(read.pendingParams?.bodyJsonKnown).toEqual({ clean: true, parsed: true });
      finishOpLogRows([read]);
      expect(read.paramJson).toBe('{"params":{"id":"3"},"body":{"name":"a"}}');

      // Not JSON, read by the route (its parse failed) or never read: the batch checks, and logs the placeholder.
      const failed = await put('{"name":', 'application/json', '/api/v1/read/4', 400);
      expect(failed.pendingParams?.bodyJsonKnown).toEqual({ clean: true });
      const unread = await put('{"name":', 'application/json');
      expect(unread.pendingParams?.bodyJsonKnown).toEqual({ clean: true });
      finishOpLogRows([failed, unread]);
      expect(failed.paramJson).toBe('{"params":{"id":"4"},"body":"<unserializable>"}');
      expect(unread.paramJson).toBe('{"params":{"id":"7"},"body":"<unserializable>"}');
    });

    it('knows a body the route validator parsed, and still masks at once a parsed body with something to mask', async () => {
      const { put } = app();
      const valid = await put('{"name":"a"}', 'application/json', '/api/v1/valid/5');
      expect(valid.pendingParams?.bodyJsonKnown).toEqual({ clean: true, parsed: true });
      // JSON the schema refuses was still parsed as JSON; a malformed text never was.
      const refused = await put('{"name":5}', 'application/json', '/api/v1/valid/5', 400);
      expect(refused.pendingParams?.bodyJsonKnown).toEqual({ clean: true, parsed: true });
      const malformed = await put('{"name":', 'application/json', '/api/v1/valid/5', 400);
      expect(malformed.pendingParams?.bodyJsonKnown).toEqual({ clean: true });
      finishOpLogRows([valid, refused, malformed]);
      expect(valid.paramJson).toBe('{"params":{"id":"5"},"body":{"name":"a"}}');
      expect(malformed.paramJson).toBe('{"params":{"id":"5"},"body":"<unserializable>"}');

      const secret = await put('{"name":"a","password":"p1"}', 'application/json', '/api/v1/read/6');
      expect(secret.pendingParams).toBeUndefined();
      expect(secret.paramJson).toBe('{"params":{"id":"6"},"body":{"name":"a","password":"***"}}');
    });

    it('writes and caps at once a JSON text to mask, a text over the cap, and every body object', async () => {
      const { put } = app();
      const masked = await put('{"password":"p","n":1}', 'application/json');
      expect(masked.pendingParams).toBeUndefined();
      expect(masked.paramJson).toBe('{"params":{"id":"7"},"body":{"password":"***","n":1}}');

      const long = await put(JSON.stringify({ note: 'x'.repeat(MAX * 4) }), 'application/json');
      expect(long.pendingParams).toBeUndefined();
      expect((long.paramJson as string).length).toBeLessThanOrEqual(MAX);
      expect(JSON.parse(long.paramJson as string)).toMatchObject({ truncated: true });

      // A form's fields, a JSON the body limit does not check (`application/json-seq`): objects, never kept queued.
      const form = await put(new URLSearchParams({ note: 'y'.repeat(MAX * 4) }), undefined);
      expect(form.pendingParams).toBeUndefined();
      expect((form.paramJson as string).length).toBeLessThanOrEqual(MAX);
      const seq = await put(`[${Array(5000).fill('{}').join(',')}]`, 'application/json-seq');
      expect(seq.pendingParams).toBeUndefined();
      expect((seq.paramJson as string).length).toBeLessThanOrEqual(MAX);
    });

    it('describes every file of a repeated multipart field, never keeping its bytes', async () => {
      const { put } = app();
      const form = new FormData();
      form.append('f[]', new File([new Uint8Array(2048)], 'a.bin', { type: 'application/octet-stream' }));
      form.append('f[]', new File([new Uint8Array(16)], 'b.bin', { type: 'application/octet-stream' }));
      const row = await put(form);
      expect(row.pendingParams).toBeUndefined();
      expect(JSON.parse(row.paramJson as string).body).toEqual({
        'f[]': [
          { fileName: 'a.bin', size: 2048, type: 'application/octet-stream' },
          { fileName: 'b.bin', size: 16, type: 'application/octet-stream' },
        ],
      });
    });
  },
);

describe('operation-log stage: the route that answered', () => {
  it("reads the route at the request's index from Hono's match as matchedRoutes names it", async () => {
    // The fast path exists on this Hono: without it every logged request maps its whole match to a new array.
    expect(MATCH_RESULT).toBeTypeOf('symbol');
    const seen: [unknown, unknown][] = [];
    const hono = new OpenAPIHono<AppEnv>();
    const look = (c: Context<AppEnv>) => seen.push([routeAtIndex(c), matchedRoutes(c)[c.req.routeIndex]]);
    hono.use('/api/*', async (c, next) => {
      look(c);
      await next();
      look(c);
    });
    hono.put('/api/v1/cfg/batch', (c) => c.json({ code: 0 }));
    hono.put('/api/v1/cfg/:id', (c) => c.json({ code: 0 }));
    hono.get('/api/v1/plain', (c) => c.json({ code: 0 }));
    for (const [method, path] of [
      ['PUT', '/api/v1/cfg/batch'],
      ['PUT', '/api/v1/cfg/7'],
      ['GET', '/api/v1/plain'],
      ['GET', '/api/v1/none'],
    ] as const)
      await hono.request(path, { method });
    expect(seen).toHaveLength(8);
    for (const [fast, mapped] of seen) expect(fast).toBe(mapped);
    // After the answer the index names the handler that ran (the batch route, not `:id` which also matched).
    const paths = seen.filter((_, i) => i % 2 === 1).map(([route]) => (route as { path?: string })?.path);
    expect(paths).toEqual(['/api/v1/cfg/batch', '/api/v1/cfg/:id', '/api/v1/plain', '/api/*']);
  });
});
