/**
 * Heavy and broken bodies over raw sockets against a listening server (issue 11): a declared length over the
 * route's limit (JSON over 1 MiB, an import or an upload over theirs) is answered 413 at once, before any of the
 * body is sent (contract §11), and a client that sends the body anyway still reads the answer, sees no reset and
 * its next request (on a new connection) works; a chunked body over the limit is answered 413 the same way after
 * it was read; broken chunked
 * framing gets a 400 with the 48000 envelope and no exception row; uploads stream to disk (memory stays flat
 * under ten parallel 45 MB uploads, and a refused one leaves no partial file).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ok } from '@svc/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoute, z } from '../index.js';
import { registerRoute } from '../openapi/register.js';
import { envelopeResponses } from '../openapi/schemas.js';
import { bearer, login } from '../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../testing/index.js';
import { type ListeningServer, listen } from './listen.js';
import { RawConnection } from './raw-http.contract.js';

const MIB = 1024 * 1024;
/** Requests whose handling (middleware, route, error handler) has finished, whatever the client saw. */
let settled = 0;

function walk(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
    );
  } catch {
    return [];
  }
}

async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

const BOUNDARY = 'svc-test-boundary';
function multipartHead(name: string): Buffer {
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n',
  );
}
const multipartTail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

/** Sends `size` bytes of file content from one reused 1 MiB buffer (the client holds no big body either). */
async function sendFile(c: RawConnection, size: number): Promise<void> {
  const block = Buffer.alloc(MIB, 0x61);
  for (let sent = 0; sent < size; sent += MIB) await c.write(block.subarray(0, Math.min(MIB, size - sent)));
}

describe('heavy and broken bodies', () => {
  let t: TestServer;
  let running: ListeningServer;
  let auth: Record<string, string>;
  beforeAll(async () => {
    t = await startTestServer({
      env: { Service__Upload__MaxSizeMb: '50', Service__Upload__RootPath: './storage/upload' },
      configure: (ctx) => {
        registerRoute(
          ctx,
          createRoute({
            method: 'post',
            path: '/api/v1/test/body',
            summary: 'Reads a body',
            responses: envelopeResponses(z.null()),
          }),
          { auth: 'authenticated' },
          async (c) => {
            await c.req.text();
            return c.json(ok(null), 200);
          },
        );
      },
    });
    auth = bearer((await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken);
    const handle = t.server.app.fetch;
    t.server.app.fetch = (...args: Parameters<typeof handle>) =>
      Promise.resolve(handle(...args)).finally(() => {
        settled++;
      });
    running = await listen(t.server, t.server.deps.logger, 'http://127.0.0.1:0');
  });
  afterAll(async () => {
    await running?.shutdown();
    await t?.close();
  });

  /** A fresh connection's request works (the previous answer did not leave the client stranded). */
  async function nextRequestWorks(): Promise<void> {
    const c = await RawConnection.open(running.url);
    await c.request('POST', '/api/v1/test/body', { ...auth, 'Content-Type': 'application/json' }, '{}');
    expect((await c.response()).status).toBe(200);
    c.close();
  }

  /**
   * Sends only the head of a request declaring `length` body bytes and reads the answer: it must come before any
   * byte of the body is sent (without the answer, the wait ends only with the test's timeout).
   */
  async function declaredOnly(path: string, length: number, type: string) {
    const c = await RawConnection.open(running.url);
    await c.write(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.authorization}\r\n` +
        `Content-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`,
    );
    const res = await c.response();
    c.close();
    return { res, errors: c.errors };
  }

  it('answers a declared length over the limit with 413 at once, before any of the body is sent', async () => {
    const json = 'application/json';
    const multipart = `multipart/form-data; boundary=${BOUNDARY}`;
    const cases = [
      // A normal route: Service:Api:MaxBodyBytes (1 MiB).
      ['JSON route, 50 MB', '/api/v1/test/body', 50 * 1000 * 1000, json, 48002, MIB],
      ['JSON route, one byte over', '/api/v1/test/body', MIB + 1, json, 48002, MIB],
      // The built-in upload route: Upload:MaxSizeMb (50 here) plus the multipart framing; it names the file size.
      ['upload, 60 MB', '/api/v1/sys/file/upload', 60 * MIB, multipart, 44002, 50 * MIB],
      // An import route: Import:MaxFileSizeMb (32).
      ['import, 50 MB', '/api/v1/sys/user/import/preview', 50 * MIB, multipart, 48002, 32 * MIB],
    ] as const;
    for (const [what, path, length, type, code, maxBytes] of cases) {
      const { res, errors } = await declaredOnly(path, length, type);
      expect(res.status, what).toBe(413);
      expect(res.headers.connection, what).toBe('close');
      expect(JSON.parse(res.body).code, what).toBe(code);
      expect(JSON.parse(res.body).args, what).toEqual({ maxBytes });
      expect(errors, what).toEqual([]);
    }
    await nextRequestWorks();
  });

  it("keeps a route's own larger limit: a 2 MiB upload is taken, a declared 2 MiB JSON body is not", async () => {
    const size = 2 * MIB;
    const head = multipartHead('two.png');
    const c = await RawConnection.open(running.url);
    await c.write(
      `POST /api/v1/sys/file/upload HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.authorization}\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
        `Content-Length: ${head.length + size + multipartTail.length}\r\n\r\n`,
    );
    await c.write(head);
    await sendFile(c, size);
    await c.write(multipartTail);
    const res = await c.response();
    c.close();
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toMatchObject({ code: 0, data: { sizeBytes: size } });
    const { res: refused } = await declaredOnly('/api/v1/test/body', size, 'application/json');
    expect(refused.status).toBe(413);
  });

  it('answers a JSON body over 1 MiB (by length) with 413 and Connection: close, without a reset', async () => {
    const c = await RawConnection.open(running.url);
    const body = Buffer.alloc(2 * MIB, 0x20);
    await c.request('POST', '/api/v1/test/body', { ...auth, 'Content-Type': 'application/json' }, body);
    const res = await c.response();
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(JSON.parse(res.body).code).toBe(48002);
    await c.closed;
    expect(c.errors).toEqual([]);
    await nextRequestWorks();
  });

  it('answers a chunked JSON body over 1 MiB with 413 and Connection: close, without a reset', async () => {
    const c = await RawConnection.open(running.url);
    await c.write(
      `POST /api/v1/test/body HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.authorization}\r\n` +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    for (let i = 0; i < 8; i++) {
      await c.write(`${chunk.length.toString(16)}\r\n`);
      await c.write(chunk);
      await c.write('\r\n');
    }
    await c.write('0\r\n\r\n');
    const res = await c.response();
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
    await c.closed;
    expect(c.errors).toEqual([]);
    await nextRequestWorks();
  });

  it('answers broken chunked framing with 400 and 48000, and writes no exception row', async () => {
    const before = (await t.server.database.repos.exceptionLogs.page({ current: 1, size: 1 })).total;
    const done = settled;
    const c = await RawConnection.open(running.url);
    await c.write(
      `POST /api/v1/test/body HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.authorization}\r\n` +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{"a"\r\nzz-not-hex\r\n',
    );
    const res = await c.response();
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).code).toBe(48000);
    await c.closed;
    // The body read failed (in the JSON check before the route); the request's handling has finished, error
    // handler included, once its fetch settles.
    while (settled === done) await turns(1);
    await turns(5);
    const after = (await t.server.database.repos.exceptionLogs.page({ current: 1, size: 1 })).total;
    expect(after).toBe(before);
    await nextRequestWorks();
  });

  it('refuses an upload over its limit while streaming: 44002, Connection: close, no partial file', async () => {
    const uploads = join(t.contentRoot, 'storage/upload');
    const before = walk(uploads).length;
    const c = await RawConnection.open(running.url);
    // No Content-Length: only the streaming reader can see the size.
    const head = multipartHead('big.png');
    await c.write(
      `POST /api/v1/sys/file/upload HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.authorization}\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const chunked = async (data: Buffer) => {
      await c.write(`${data.length.toString(16)}\r\n`);
      await c.write(data);
      await c.write('\r\n');
    };
    await chunked(head);
    const block = Buffer.alloc(MIB, 0x62);
    for (let i = 0; i < 51; i++) await chunked(block);
    await chunked(multipartTail);
    await c.write('0\r\n\r\n');
    const res = await c.response();
    expect(JSON.parse(res.body).code).toBe(44002);
    expect(res.headers.connection).toBe('close');
    await c.closed;
    expect(c.errors).toEqual([]);
    expect(walk(uploads).length).toBe(before);
    await nextRequestWorks();
  });

  it('refuses an upload declared over its limit with 44002 and Connection: close while the client sends it', async () => {
    const c = await RawConnection.open(running.url);
    const head = multipartHead('big.png');
    const size = 51 * MIB;
    await c.write(
      `POST /api/v1/sys/file/upload HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.authorization}\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
        `Content-Length: ${head.length + size + multipartTail.length}\r\n\r\n`,
    );
    await c.write(head);
    await sendFile(c, size);
    await c.write(multipartTail);
    const res = await c.response();
    expect(JSON.parse(res.body).code).toBe(44002);
    expect(res.headers.connection).toBe('close');
    await c.closed;
    expect(c.errors).toEqual([]);
    await nextRequestWorks();
  });

  it('streams ten parallel 45 MB uploads to disk with flat memory', async () => {
    const size = 45 * MIB;
    const head = multipartHead('big.png');
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const one = async () => {
      const c = await RawConnection.open(running.url);
      await c.write(
        `POST /api/v1/sys/file/upload HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.authorization}\r\n` +
          `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
          `Content-Length: ${head.length + size + multipartTail.length}\r\n\r\n`,
      );
      await c.write(head);
      const block = Buffer.alloc(MIB, 0x63);
      for (let sent = 0; sent < size; sent += MIB) {
        await c.write(block);
        peak = Math.max(peak, process.memoryUsage().rss);
      }
      await c.write(multipartTail);
      const res = await c.response();
      c.close();
      return JSON.parse(res.body) as { code: number; data: { sizeBytes: number } };
    };
    const answers = await Promise.all(Array.from({ length: 10 }, one));
    expect(answers.map((a) => [a.code, a.data.sizeBytes])).toEqual(Array(10).fill([0, size]));
    // Buffered, ten bodies alone would be 450 MB; streamed, the growth stays far below one body's size per
    // upload (the goal for the built host is < 200 MB, see bench/faults.mjs).
    expect(peak - rssBefore).toBeLessThan(200 * MIB);
    // 450 MB through loopback and the disk: seconds on a quiet machine, much longer on a loaded one; the limit
    // only stops a hang, it measures nothing.
  }, 120_000);
});
