/**
 * The chunked upload against a fake server that behaves as the chunk routes do (upload id per content, received
 * indexes on init, instant upload for a known hash, the hash verified again on complete): a fresh upload sends
 * every chunk, a resumed one only the missing chunks, a known content none at all.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type ChunkApi,
  type ChunkProgress,
  chunkCountOf,
  type NamedBlob,
  sha256Hex,
  type UploadedFile,
  uploadInChunks,
} from './chunk-upload.js';

const CHUNK = 1024;

function fileOf(size: number, seed: number, name = 'report.pdf'): NamedBlob {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 31 + seed) % 251;
  return new File([bytes], name, { type: 'application/pdf' });
}

/** A fake of the three routes, recording every call. */
function fakeServer() {
  const files = new Map<string, UploadedFile>();
  const uploads = new Map<string, { hash: string; chunks: Map<number, Uint8Array> }>();
  const calls: string[] = [];
  let nextId = 1;
  let failAt: number | undefined;
  const api: ChunkApi = {
    async init(body) {
      calls.push('init');
      const known = files.get(body.fileHash);
      if (known)
        return { uploaded: true, file: { ...known, id: nextId++ }, uploadId: '', receivedIndexes: [] };
      const uploadId = `u-${body.fileHash.slice(0, 8)}-${body.chunkCount}`;
      const upload = uploads.get(uploadId) ?? { hash: body.fileHash, chunks: new Map() };
      uploads.set(uploadId, upload);
      return { uploaded: false, uploadId, receivedIndexes: [...upload.chunks.keys()] };
    },
    async sendChunk(uploadId, index, chunk) {
      calls.push(`chunk ${index}`);
      if (index === failAt) {
        failAt = undefined;
        throw new Error('network down');
      }
      uploads.get(uploadId)?.chunks.set(index, new Uint8Array(await chunk.arrayBuffer()));
    },
    async complete(body) {
      calls.push('complete');
      const upload = uploads.get(body.uploadId);
      if (!upload) throw new Error('unknown upload');
      const hash = createHash('sha256');
      for (let i = 0; i < body.chunkCount; i += 1) {
        const part = upload.chunks.get(i);
        if (!part) throw new Error(`chunk ${i} missing`);
        hash.update(part);
      }
      if (hash.digest('hex') !== body.fileHash) throw new Error('hash mismatch');
      const size = [...upload.chunks.values()].reduce((n, c) => n + c.byteLength, 0);
      const file = {
        id: nextId++,
        originalName: body.fileName,
        sizeBytes: size,
        contentType: body.contentType ?? '',
        viewUrl: '/v',
      };
      files.set(body.fileHash, file);
      uploads.delete(body.uploadId);
      return file;
    },
  };
  return {
    api,
    calls,
    failOnce(index: number) {
      failAt = index;
    },
  };
}

describe('chunked upload', () => {
  it('hashes with Web Crypto exactly as the server does (SHA-256, lower-case hex)', async () => {
    const file = fileOf(3 * CHUNK + 5, 7);
    const expected = createHash('sha256')
      .update(new Uint8Array(await file.arrayBuffer()))
      .digest('hex');
    expect(await sha256Hex(file)).toBe(expected);
    expect(chunkCountOf(3 * CHUNK + 5, CHUNK)).toBe(4);
    expect(chunkCountOf(CHUNK, CHUNK)).toBe(1);
    expect(chunkCountOf(0, CHUNK)).toBe(1);
  });

  it('streams SHA-256 for big files (or without Web Crypto) with the same digest as Node', async () => {
    // Sizes around the 4 MiB slice, so that the last slice is short, exact or a single byte.
    for (const size of [0, 1, 4 * 1024 * 1024, 4 * 1024 * 1024 + 1]) {
      const file = fileOf(size, 3);
      const expected = createHash('sha256')
        .update(new Uint8Array(await file.arrayBuffer()))
        .digest('hex');
      expect(await sha256Hex(file, { webCryptoMaxBytes: -1 }), `size ${size}`).toBe(expected);
    }
    // A file of several 4 MiB slices through the streaming path, reporting the bytes hashed.
    const big = fileOf(9 * 1024 * 1024 + 17, 5);
    const seen: number[] = [];
    const streamed = await sha256Hex(big, { webCryptoMaxBytes: 0, onBytes: (n) => seen.push(n) });
    expect(streamed).toBe(await sha256Hex(big));
    expect(seen).toEqual([4 * 1024 * 1024, 8 * 1024 * 1024, 9 * 1024 * 1024 + 17]);
  });

  it('sends every chunk of a new file in order, then completes with the verified hash', async () => {
    const server = fakeServer();
    const progress: ChunkProgress[] = [];
    const result = await uploadInChunks(fileOf(3 * CHUNK + 5, 1), server.api, {
      chunkBytes: CHUNK,
      onProgress: (p) => progress.push(p),
    });
    expect(server.calls).toEqual(['init', 'chunk 0', 'chunk 1', 'chunk 2', 'chunk 3', 'complete']);
    expect(result).toMatchObject({ instant: false, sent: [0, 1, 2, 3], skipped: [] });
    expect(result.file).toMatchObject({ originalName: 'report.pdf', sizeBytes: 3 * CHUNK + 5 });
    expect(progress.at(0)?.phase).toBe('hashing');
    expect(progress.at(-1)).toEqual({ phase: 'done', doneChunks: 4, chunkCount: 4, percent: 100 });
  });

  it('resumes after an interruption: the chunks the server holds are skipped', async () => {
    const server = fakeServer();
    const file = fileOf(4 * CHUNK, 2);
    server.failOnce(2);
    await expect(uploadInChunks(file, server.api, { chunkBytes: CHUNK })).rejects.toThrow('network down');
    expect(server.calls).toEqual(['init', 'chunk 0', 'chunk 1', 'chunk 2']);

    server.calls.length = 0;
    const progress: ChunkProgress[] = [];
    const result = await uploadInChunks(file, server.api, {
      chunkBytes: CHUNK,
      onProgress: (p) => progress.push(p),
    });
    expect(server.calls).toEqual(['init', 'chunk 2', 'chunk 3', 'complete']);
    expect(result).toMatchObject({ instant: false, sent: [2, 3], skipped: [0, 1] });
    // Progress starts where the server is: half of the bytes were already there.
    expect(progress.find((p) => p.phase === 'uploading')).toMatchObject({ doneChunks: 2, percent: 50 });
  });

  it('uploads a known content instantly: init answers the file, no chunk and no complete are sent', async () => {
    const server = fakeServer();
    await uploadInChunks(fileOf(2 * CHUNK + 1, 3), server.api, { chunkBytes: CHUNK });
    server.calls.length = 0;
    const again = await uploadInChunks(fileOf(2 * CHUNK + 1, 3, 'copy.pdf'), server.api, {
      chunkBytes: CHUNK,
    });
    expect(server.calls).toEqual(['init']);
    expect(again).toMatchObject({ instant: true, sent: [], skipped: [] });
    expect(again.file.sizeBytes).toBe(2 * CHUNK + 1);
  });

  it('stops between chunks when aborted, leaving the sent ones for a resume', async () => {
    const server = fakeServer();
    const controller = new AbortController();
    const upload = uploadInChunks(fileOf(3 * CHUNK, 4), server.api, {
      chunkBytes: CHUNK,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'uploading' && p.doneChunks === 1) controller.abort();
      },
    });
    await expect(upload).rejects.toThrow();
    expect(server.calls).toEqual(['init', 'chunk 0']);
  });
});
