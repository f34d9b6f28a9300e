/**
 * Chunked upload over HTTP: resume (received indexes), missing index (44005), hash mismatch (44006), limits at
 * init (44002, 44003), the declared size bounding the sum of the chunks (44002; a chunk sent again replaces its
 * copy; parallel chunks, driven piece by piece through the store, cannot both pass), path traversal in
 * uploadId/index refused, concurrent completes answering one row, a chunk still arriving when its upload completes
 * dropped (44004), instant upload only from files inside the caller's scope, the bound on a user's open uploads
 * (44008), and the reclaimer of abandoned chunks and deleted files.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DbType } from '@svc/kernel';
import { uploadReclaimer } from '@svc/modules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json } from '../../testing/auth.js';
import { type AdminHarness, startAdminServer } from '../admin/harness.contract.js';
import { uploadModule } from './index.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/**
 * A chunk body handed to the store piece by piece: `waiting` resolves when the store asks for the piece after
 * `first`, that is once it has checked and written `first`; `go()` lets the rest through.
 */
function heldBody(first: Uint8Array, rest: Uint8Array = new Uint8Array()) {
  let go!: () => void;
  let asked!: () => void;
  const gate = new Promise<void>((r) => {
    go = r;
  });
  const waiting = new Promise<void>((r) => {
    asked = r;
  });
  async function* body() {
    yield first;
    asked();
    await gate;
    if (rest.byteLength > 0) yield rest;
  }
  return { body: body(), waiting, go };
}

async function* bodyOf(bytes: Uint8Array) {
  yield bytes;
}
const CODES = [
  'POST:/api/v1/sys/file/chunk/init',
  'POST:/api/v1/sys/file/chunk',
  'POST:/api/v1/sys/file/chunk/complete',
];

export function defineChunksContract(dbType: DbType, cache: 'Memory' | 'Redis'): void {
  describe(`chunked upload on ${dbType} with ${cache}`, () => {
    let h: AdminHarness;
    let clock = new Date('2026-05-01T10:00:00Z').getTime();
    let otherToken: string;
    const content = new Uint8Array(3000).map((_, i) => (i * 7) % 251);
    const parts = [content.subarray(0, 1000), content.subarray(1000, 2000), content.subarray(2000)];
    const hash = sha(content);

    beforeAll(async () => {
      h = await startAdminServer(dbType, cache, {
        now: () => new Date(clock),
        env: { Service__Upload__MaxSizeMb: '1', Service__Upload__RootPath: './storage/upload' },
      });
      const orgB = await h.org('chunk-b');
      const role = await h.role('chunk-own-org', CODES, { scopeType: 2 });
      await h.user('chunk-other', { orgId: orgB, roleIds: [role] });
      otherToken = await h.loginAs('chunk-other');
    }, 120_000);
    afterAll(() => h?.close());

    const init = (body: Record<string, unknown>, token?: string) =>
      h.call('POST', '/api/v1/sys/file/chunk/init', { json: body, ...(token ? { token } : {}) });
    const complete = (body: Record<string, unknown>, token?: string) =>
      h.call('POST', '/api/v1/sys/file/chunk/complete', { json: body, ...(token ? { token } : {}) });
    async function send(uploadId: string, index: string, bytes: Uint8Array, token?: string) {
      const form = new FormData();
      form.append('uploadId', uploadId);
      form.append('index', index);
      form.append('chunk', new File([bytes], 'chunk.bin'));
      const res = await h.t.request('/api/v1/sys/file/chunk', {
        method: 'POST',
        headers: bearer(token ?? h.admin),
        body: form,
      });
      return json(res);
    }

    it('resumes, names a missing index, and completes with a verified hash', async () => {
      const start = { fileHash: hash, fileName: 'data.zip', totalSize: 3000, chunkCount: 3 };
      const first = await init(start);
      expect(first.body.data).toMatchObject({ uploaded: false, receivedIndexes: [] });
      const uploadId = first.body.data.uploadId as string;
      expect((await send(uploadId, '2', parts[2] as Uint8Array)).code).toBe(0);
      // An interrupted client starts again: the same upload, chunk 2 already there.
      const again = await init(start);
      expect(again.body.data).toMatchObject({ uploadId, receivedIndexes: [2] });
      expect((await send(uploadId, '0', parts[0] as Uint8Array)).code).toBe(0);
      const missing = await complete({ uploadId, fileHash: hash, fileName: 'data.zip', chunkCount: 3 });
      expect(missing.body).toMatchObject({ code: 44005, args: { index: 1 } });
      expect((await send(uploadId, '1', parts[1] as Uint8Array)).code).toBe(0);
      // Two completes at once answer the same file.
      const [a, b] = await Promise.all([
        complete({ uploadId, fileHash: hash, fileName: 'data.zip', chunkCount: 3 }),
        complete({ uploadId, fileHash: hash, fileName: 'data.zip', chunkCount: 3 }),
      ]);
      expect(a.body.code).toBe(0);
      expect(b.body.data.id).toBe(a.body.data.id);
      const dl = await h.t.request(`/api/v1/sys/file/${a.body.data.id}/download`, {
        headers: bearer(h.admin),
      });
      expect(Buffer.from(await dl.arrayBuffer()).equals(Buffer.from(content))).toBe(true);
      const page = await h.ok('GET', '/api/v1/sys/file/page?name=data.zip');
      expect(page.total).toBe(1);
    });

    it('answers a known hash at once inside the scope, never from a file outside it', async () => {
      const instant = await init({ fileHash: hash, fileName: 'copy.zip', totalSize: 3000, chunkCount: 3 });
      expect(instant.body.data).toMatchObject({
        uploaded: true,
        file: { originalName: 'copy.zip', sizeBytes: 3000 },
      });
      // The other user's scope (their own org) does not hold the admin's file: a normal upload.
      const other = await init(
        { fileHash: hash, fileName: 'mine.zip', totalSize: 3000, chunkCount: 3 },
        otherToken,
      );
      expect(other.body.data).toMatchObject({ uploaded: false, receivedIndexes: [] });
      // Another user's upload id is unknown to this caller.
      expect((await send(other.body.data.uploadId, '0', parts[0] as Uint8Array)).code).toBe(44004);
    });

    it('shares the bytes of a known hash instead of copying them, and removes them with the last row', async () => {
      const root = join(h.t.contentRoot, 'storage/upload');
      const storedFiles = () =>
        (readdirSync(root, { recursive: true }) as string[])
          .filter((name) => !name.startsWith('.chunks') && statSync(join(root, name)).isFile())
          .sort();
      const bytes = new Uint8Array(2048).map((_, i) => (i * 13) % 251);
      const fileHash = sha(bytes);
      const start = { fileHash, fileName: 'shared.zip', totalSize: 2048, chunkCount: 1 };
      const uploadId = (await init(start)).body.data.uploadId as string;
      expect((await send(uploadId, '0', bytes)).code).toBe(0);
      const first = (await complete({ uploadId, fileHash, fileName: 'shared.zip', chunkCount: 1 })).body.data;
      const files = h.t.server.deps.core.repos.files;
      const key = (await files.getById(first.id))?.storageKey as string;
      const onDisk = storedFiles();
      // Each init of the known hash answers a file of its own at once, without writing the bytes again.
      const copies: number[] = [];
      for (let i = 0; i < 5; i++) {
        const answer = await init({ ...start, fileName: `shared-${i}.zip` });
        expect(answer.body.data).toMatchObject({ uploaded: true, file: { originalName: `shared-${i}.zip` } });
        copies.push(answer.body.data.file.id);
      }
      expect(storedFiles()).toEqual(onDisk);
      for (const id of copies) expect((await files.getById(id))?.storageKey).toBe(key);
      // Purging rows leaves the bytes to the rows still naming them, deleted ones included (a restore).
      const purge = async (id: number) => {
        await h.ok('DELETE', `/api/v1/sys/file/${id}`);
        await h.ok('DELETE', `/api/v1/sys/recycle/file/${id}`);
      };
      for (const id of [first.id, ...copies.slice(0, 4)]) await purge(id);
      expect(storedFiles()).toContain(key);
      const last = copies[4] as number;
      const dl = await h.t.request(`/api/v1/sys/file/${last}/download`, { headers: bearer(h.admin) });
      expect(Buffer.from(await dl.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
      await purge(last);
      expect(storedFiles()).not.toContain(key);
      // The bytes are gone with their last row: the hash is uploaded again, not answered from nothing.
      expect((await init(start)).body.data).toMatchObject({ uploaded: false });
    });

    it('refuses a hash mismatch (44006) and drops the chunks', async () => {
      const bytes = new Uint8Array([1, 2, 3, 4]);
      const wrong = sha(new Uint8Array([9, 9, 9, 9]));
      const started = await init({ fileHash: wrong, fileName: 'w.txt', totalSize: 4, chunkCount: 2 });
      const uploadId = started.body.data.uploadId as string;
      await send(uploadId, '0', bytes.subarray(0, 2));
      await send(uploadId, '1', bytes.subarray(2));
      const res = await complete({ uploadId, fileHash: wrong, fileName: 'w.txt', chunkCount: 2 });
      expect(res.body.code).toBe(44006);
      expect((await h.ok('GET', '/api/v1/sys/file/page?name=w.txt')).total).toBe(0);
      // The upload is gone: its chunks answer as unknown, and an init starts it again from nothing.
      expect((await send(uploadId, '0', bytes.subarray(0, 2))).code).toBe(44004);
      const again = await init({ fileHash: wrong, fileName: 'w.txt', totalSize: 4, chunkCount: 2 });
      expect(again.body.data).toMatchObject({ uploadId, receivedIndexes: [] });
    });

    /** The upload's folder: its stored chunks' sizes by index, and whether a partial file is left. */
    function folderOf(uploadId: string) {
      const dir = join(h.t.contentRoot, 'storage/upload/.chunks', uploadId);
      const names = readdirSync(dir);
      const parts: Record<string, number> = {};
      for (const n of names) if (n.endsWith('.part')) parts[n] = statSync(join(dir, n)).size;
      const bytes = Object.values(parts).reduce((a, b) => a + b, 0);
      return { parts, bytes, partial: names.some((n) => n.endsWith('.tmp')) };
    }
    const fresh = async (totalSize: number, chunkCount: number) => {
      const started = await init({
        fileHash: sha(randomBytes(16)),
        fileName: 'sum.zip',
        totalSize,
        chunkCount,
      });
      expect(started.body.code, JSON.stringify(started.body)).toBe(0);
      return started.body.data.uploadId as string;
    };

    it('keeps the sum of the chunks within the declared size; a chunk sent again replaces its copy', async () => {
      // The finding: every chunk as large as the whole file. Only the first fits.
      let uploadId = await fresh(1000, 5);
      expect((await send(uploadId, '0', new Uint8Array(1000))).code).toBe(0);
      for (const index of ['1', '2', '3', '4'])
        expect(await send(uploadId, index, new Uint8Array(1000))).toMatchObject({
          code: 44002,
          args: { maxBytes: 1000, index: Number(index), heldBytes: 1000 },
        });
      expect(folderOf(uploadId)).toEqual({ parts: { '0.part': 1000 }, bytes: 1000, partial: false });

      uploadId = await fresh(3000, 3);
      expect((await send(uploadId, '0', new Uint8Array(1500))).code).toBe(0);
      expect((await send(uploadId, '1', new Uint8Array(1500))).code).toBe(0);
      expect(await send(uploadId, '2', new Uint8Array(1))).toMatchObject({
        code: 44002,
        args: { maxBytes: 3000, index: 2, heldBytes: 3000 },
      });
      // Sent again: it replaces the earlier copy, so it is counted once.
      expect((await send(uploadId, '1', new Uint8Array(1500))).code).toBe(0);
      expect((await send(uploadId, '1', new Uint8Array(1000))).code).toBe(0);
      expect(await send(uploadId, '0', new Uint8Array(2001))).toMatchObject({ code: 44002 });
      expect((await send(uploadId, '2', new Uint8Array(500))).code).toBe(0);
      expect(folderOf(uploadId)).toEqual({
        parts: { '0.part': 1500, '1.part': 1000, '2.part': 500 },
        bytes: 3000,
        partial: false,
      });
    });

    it('lets only what fits through when chunks of one upload arrive in parallel', async () => {
      const chunks = h.t.server.modules.servicesOf(uploadModule).chunks;
      const refusedWith = (index: string, bytes: Uint8Array, id: string) =>
        chunks.writeChunk(id, index, h.adminId, bodyOf(bytes)).then(
          () => 'stored',
          (error: { code?: number }) => error.code,
        );
      // Chunk 0 has 600 bytes written and is still arriving: chunk 1 with 600 more does not fit, 400 do.
      let uploadId = await fresh(1000, 2);
      const first = heldBody(new Uint8Array(600), new Uint8Array(0));
      const storing = chunks.writeChunk(uploadId, '0', h.adminId, first.body);
      await first.waiting;
      expect(await refusedWith('1', new Uint8Array(600), uploadId)).toBe(44002);
      expect(await refusedWith('1', new Uint8Array(400), uploadId)).toBe('stored');
      first.go();
      await storing;
      expect(folderOf(uploadId)).toEqual({
        parts: { '0.part': 600, '1.part': 400 },
        bytes: 1000,
        partial: false,
      });

      // Two requests for one index at once: both are on disk until one replaces the other, so both count.
      uploadId = await fresh(1000, 2);
      const a = heldBody(new Uint8Array(400), new Uint8Array(300));
      const storingA = chunks.writeChunk(uploadId, '0', h.adminId, a.body);
      await a.waiting;
      const b = heldBody(new Uint8Array(400));
      const storingB = chunks.writeChunk(uploadId, '0', h.adminId, b.body);
      await b.waiting;
      a.go();
      // A's last 300 bytes do not fit beside its 400 and B's 400 in flight: A is refused, its partial file removed.
      await expect(storingA).rejects.toMatchObject({ code: 44002, args: { maxBytes: 1000, index: 0 } });
      b.go();
      await storingB;
      expect(folderOf(uploadId)).toEqual({ parts: { '0.part': 400 }, bytes: 400, partial: false });

      // Over HTTP, five chunks of 400 at once into 1000 bytes: at most two are stored, the rest answer 44002.
      uploadId = await fresh(1000, 5);
      const answers = await Promise.all(
        ['0', '1', '2', '3', '4'].map((index) => send(uploadId, index, new Uint8Array(400))),
      );
      const codes = answers.map((a) => a.code);
      expect(codes.filter((c) => c === 0).length).toBeGreaterThanOrEqual(1);
      expect(codes.filter((c) => c === 0).length).toBeLessThanOrEqual(2);
      expect(codes.every((c) => c === 0 || c === 44002)).toBe(true);
      const after = folderOf(uploadId);
      expect(after.bytes).toBe(400 * codes.filter((c) => c === 0).length);
      expect(after.partial).toBe(false);
    });

    it('drops a chunk that was still arriving when its upload completed (44004), leaving no part behind', async () => {
      const chunks = h.t.server.modules.servicesOf(uploadModule).chunks;
      const bytes = new Uint8Array([11, 12, 13, 14]);
      for (const fileHash of [sha(bytes), sha(new Uint8Array([0, 0, 0, 0]))]) {
        const start = { fileHash, fileName: 'late.txt', totalSize: 4, chunkCount: 2 };
        const uploadId = (await init(start)).body.data.uploadId as string;
        expect((await send(uploadId, '0', bytes.subarray(0, 2))).code).toBe(0);
        expect((await send(uploadId, '1', bytes.subarray(2))).code).toBe(0);
        // Chunk 0 sent again, its first byte written, while the upload completes (its file made, or a wrong hash).
        const late = heldBody(bytes.subarray(0, 1), bytes.subarray(1, 2));
        const storing = chunks.writeChunk(uploadId, '0', h.adminId, late.body);
        await late.waiting;
        const { totalSize: _, ...asked } = start;
        const done = await complete({ ...asked, uploadId });
        expect(done.body.code).toBe(fileHash === sha(bytes) ? 0 : 44006);
        late.go();
        await expect(storing).rejects.toMatchObject({ code: 44004 });
        expect(folderOf(uploadId)).toEqual({ parts: {}, bytes: 0, partial: false });
      }
    });

    it('checks limits at init and refuses path tricks in uploadId and index', async () => {
      expect(
        (await init({ fileHash: hash, fileName: 'a.html', totalSize: 10, chunkCount: 1 })).body.code,
      ).toBe(44003);
      expect(
        (await init({ fileHash: hash, fileName: 'a.zip', totalSize: 2 * 1024 * 1024, chunkCount: 2 })).body
          .code,
      ).toBe(44002);
      expect(
        (await init({ fileHash: 'zz', fileName: 'a.zip', totalSize: 10, chunkCount: 1 })).body.code,
      ).toBe(48000);
      // A name the store refuses (NUL, CR/LF, a direction override) is refused at init, before any chunk is sent.
      for (const fileName of ['a\u0000b.zip', 'a\r\nb.zip', 'gnp\u202e.zip'])
        expect((await init({ fileHash: hash, fileName, totalSize: 10, chunkCount: 1 })).body.code).toBe(
          48000,
        );
      const started = await init({
        fileHash: sha(new Uint8Array([5])),
        fileName: 'p.txt',
        totalSize: 1,
        chunkCount: 1,
      });
      const uploadId = started.body.data.uploadId as string;
      expect((await send('../../../etc', '0', new Uint8Array([5]))).code).toBe(48000);
      expect((await send(uploadId, '../0', new Uint8Array([5]))).code).toBe(48000);
      expect((await send(uploadId, '1', new Uint8Array([5]))).code).toBe(48000);
      expect((await send(uploadId, '0', new Uint8Array([5, 6]))).code).toBe(44002);
      const traversal = await complete({
        uploadId: '../x',
        fileHash: hash,
        fileName: 'a.zip',
        chunkCount: 1,
      });
      expect(traversal.body.code).toBe(48000);
    });

    it('bounds the open uploads of a user (44008 with maxOpen), parallel inits included', async () => {
      const role = await h.role('chunk-bound', CODES);
      await h.user('chunk-bound', { roleIds: [role] });
      const token = await h.loginAs('chunk-bound');
      const start = (n: number) => ({
        fileHash: sha(new Uint8Array([n, n])),
        fileName: `bound-${n}.txt`,
        totalSize: 2,
        chunkCount: 1,
      });
      const ids: string[] = [];
      // The default bound is 16: fifteen open, then four at once of which one fits.
      for (let n = 1; n <= 15; n++) {
        const res = await init(start(n), token);
        expect(res.body.code, JSON.stringify(res.body)).toBe(0);
        ids.push(res.body.data.uploadId);
      }
      const parallel = await Promise.all([16, 17, 18, 19].map((n) => init(start(n), token)));
      expect(parallel.filter((r) => r.body.code === 0)).toHaveLength(1);
      for (const r of parallel.filter((r) => r.body.code !== 0))
        expect(r.body).toMatchObject({ code: 44008, args: { maxOpen: 16 } });
      // A resume at the bound answers its chunks; another user is not held by this one's bound.
      expect((await send(ids[0] as string, '0', new Uint8Array([1, 1]), token)).code).toBe(0);
      expect((await init(start(1), token)).body.data).toMatchObject({
        uploadId: ids[0],
        receivedIndexes: [0],
      });
      expect((await init(start(20))).body.code).toBe(0);
      // Completing one frees its slot.
      const { totalSize: _, ...completed } = start(1);
      const done = await complete({ ...completed, uploadId: ids[0] }, token);
      expect(done.body.code).toBe(0);
      expect((await init(start(20), token)).body.code).toBe(0);
      expect((await init(start(21), token)).body.code).toBe(44008);
    });

    it('reclaims abandoned chunks and deleted files after the retention period', async () => {
      const started = await init({
        fileHash: sha(new Uint8Array([7, 7])),
        fileName: 'r.txt',
        totalSize: 2,
        chunkCount: 2,
      });
      await send(started.body.data.uploadId, '0', new Uint8Array([7]));
      const file = (await h.ok('GET', '/api/v1/sys/file/page?name=copy.zip')).items[0];
      await h.ok('DELETE', `/api/v1/sys/file/${file.id}`);
      const chunks = uploadReclaimer(h.t.server.modules.servicesOf(uploadModule).chunks);
      expect(chunks.name).toBe('upload');
      const root = join(h.t.contentRoot, 'storage/upload/.chunks');
      const before = readdirSync(root).length;
      expect(before).toBeGreaterThan(0);
      // Within the retention period nothing goes.
      expect(await chunks.reclaim(new Date(clock))).toBe(0);
      clock += 25 * 3_600_000;
      const reclaimed = await chunks.reclaim(new Date(clock));
      expect(reclaimed).toBeGreaterThanOrEqual(2);
      expect(existsSync(join(root, started.body.data.uploadId))).toBe(false);
      const purged = await h.t.server.deps.core.repos.files.deletedBefore(new Date(clock), 10);
      expect(purged).toEqual([]);
    });
  });
}
