/**
 * Chunked, resumable upload over the service's chunk routes (modules.md "Chunked upload"), kept free of Vue so
 * it is tested with a fake API:
 * 1. the browser hashes the whole file (SHA-256, hex: the `fileHash` the server verifies again on complete);
 * 2. `init` answers either the file at once (instant upload: a live file with that hash is in the caller's data
 *    scope) or an upload id with the chunk indexes it already holds (resume after an interruption);
 * 3. only the missing chunks are sent (multipart `uploadId`, `index`, then `chunk`), one at a time;
 * 4. `complete` assembles them and answers the file row (44005 names a missing chunk, 44006 a hash mismatch).
 * The chunk size is the client's choice: the server only needs `chunkCount` to be the same on init and complete.
 */

import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { ApiClient } from '../api/client.js';
import { unwrap } from '../api/envelope.js';
import type { components } from '../api/schema.js';

/**
 * 2 MiB: big enough that a 50 MB file (the default `Upload:MaxSizeMb`) is 25 requests, small enough that one
 * chunk retried after a network failure costs little and stays far below the upload body limit.
 */
export const DEFAULT_CHUNK_BYTES = 2 * 1024 * 1024;

/** A stored file as the upload routes answer it. */
export type UploadedFile = components['schemas']['UploadResult'];

export type ChunkInitBody = components['schemas']['ChunkInit'];

export type ChunkInitAnswer = components['schemas']['ChunkInitResult'];

/** The three routes, as the upload needs them (`chunkApiOf` builds it over the typed client). */
export interface ChunkApi {
  init(body: ChunkInitBody): Promise<ChunkInitAnswer>;
  sendChunk(uploadId: string, index: number, chunk: Blob): Promise<void>;
  complete(body: Omit<ChunkInitBody, 'totalSize'> & { uploadId: string }): Promise<UploadedFile>;
}

/** The file to send: a browser `File`, or any blob with a name. */
export interface NamedBlob {
  readonly name: string;
  readonly size: number;
  readonly type: string;
  slice(start?: number, end?: number): Blob;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export type ChunkPhase = 'hashing' | 'uploading' | 'completing' | 'done';

export interface ChunkProgress {
  phase: ChunkPhase;
  /** Chunks on the server (received before, or sent now). */
  doneChunks: number;
  chunkCount: number;
  /** 0–100: by bytes hashed while hashing, then by bytes on the server. */
  percent: number;
}

export interface ChunkUploadOptions {
  /** @default DEFAULT_CHUNK_BYTES */
  chunkBytes?: number;
  /** @default sha256Hex (Web Crypto, streamed for big files) */
  hash?: (file: NamedBlob, onBytes: (hashed: number) => void) => Promise<string>;
  onProgress?: (progress: ChunkProgress) => void;
  /** Stops between chunks (the chunks sent so far stay on the server for a later resume). */
  signal?: AbortSignal;
}

export interface ChunkUploadResult {
  file: UploadedFile;
  /** The server already had the content: no chunk was sent. */
  instant: boolean;
  /** Indexes sent by this call. */
  sent: number[];
  /** Indexes the server already held (resume). */
  skipped: number[];
}

/** How many chunks a file of `size` bytes makes (at least one). */
export function chunkCountOf(size: number, chunkBytes = DEFAULT_CHUNK_BYTES): number {
  if (!Number.isInteger(chunkBytes) || chunkBytes <= 0) throw new RangeError('chunkBytes must be positive');
  return Math.max(1, Math.ceil(size / chunkBytes));
}

/**
 * Files up to this size are hashed by Web Crypto in one call (fast, native); `crypto.subtle` has no incremental
 * digest, so that reads the whole file into memory. Larger files, and pages without Web Crypto (it exists only
 * in secure contexts: HTTPS or localhost), are hashed as a stream by @noble/hashes (audited, incremental), slice by slice.
 */
export const WEB_CRYPTO_MAX_BYTES = 64 * 1024 * 1024;
/** Bytes read per step of the streaming hash. */
const HASH_SLICE_BYTES = 4 * 1024 * 1024;

/**
 * SHA-256 of the whole file in lower-case hex: Web Crypto up to `webCryptoMaxBytes`, else streamed through
 * @noble/hashes' SHA-256 one slice at a time (memory stays at one slice), reporting the bytes hashed.
 */
export async function sha256Hex(
  file: Pick<NamedBlob, 'size' | 'slice' | 'arrayBuffer'>,
  options: { onBytes?: (hashed: number) => void; webCryptoMaxBytes?: number } = {},
): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle && file.size <= (options.webCryptoMaxBytes ?? WEB_CRYPTO_MAX_BYTES)) {
    const digest = await subtle.digest('SHA-256', await file.arrayBuffer());
    options.onBytes?.(file.size);
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  }
  const hash = sha256.create();
  for (let start = 0; start < file.size; start += HASH_SLICE_BYTES) {
    hash.update(new Uint8Array(await file.slice(start, start + HASH_SLICE_BYTES).arrayBuffer()));
    options.onBytes?.(Math.min(file.size, start + HASH_SLICE_BYTES));
  }
  return bytesToHex(hash.digest());
}

/** Uploads `file` through `api`: instant when the server knows the hash, else only the missing chunks. */
export async function uploadInChunks(
  file: NamedBlob,
  api: ChunkApi,
  options: ChunkUploadOptions = {},
): Promise<ChunkUploadResult> {
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const chunkCount = chunkCountOf(file.size, chunkBytes);
  const report = (phase: ChunkPhase, done: ReadonlySet<number>) => {
    let bytes = 0;
    for (const index of done) bytes += Math.min(chunkBytes, file.size - index * chunkBytes);
    options.onProgress?.({
      phase,
      doneChunks: done.size,
      chunkCount,
      percent: file.size > 0 ? Math.round((bytes / file.size) * 100) : phase === 'done' ? 100 : 0,
    });
  };
  const hashed = (bytes: number) =>
    options.onProgress?.({
      phase: 'hashing',
      doneChunks: 0,
      chunkCount,
      percent: file.size > 0 ? Math.round((bytes / file.size) * 100) : 0,
    });
  hashed(0);
  const fileHash = await (options.hash ?? ((f, onBytes) => sha256Hex(f, { onBytes })))(file, hashed);
  const contentType = file.type ? { contentType: file.type } : {};
  const init = await api.init({
    fileHash,
    fileName: file.name,
    totalSize: file.size,
    chunkCount,
    ...contentType,
  });
  if (init.uploaded && init.file) {
    report('done', new Set(Array.from({ length: chunkCount }, (_, i) => i)));
    return { file: init.file, instant: true, sent: [], skipped: [] };
  }
  const present = new Set(
    init.receivedIndexes.filter((i) => Number.isInteger(i) && i >= 0 && i < chunkCount),
  );
  const done = new Set(present);
  const sent: number[] = [];
  report('uploading', done);
  for (let index = 0; index < chunkCount; index += 1) {
    if (present.has(index)) continue;
    options.signal?.throwIfAborted();
    await api.sendChunk(init.uploadId, index, file.slice(index * chunkBytes, (index + 1) * chunkBytes));
    sent.push(index);
    done.add(index);
    report('uploading', done);
  }
  report('completing', done);
  const stored = await api.complete({
    uploadId: init.uploadId,
    fileHash,
    fileName: file.name,
    chunkCount,
    ...contentType,
  });
  report('done', done);
  return { file: stored, instant: false, sent, skipped: [...present].sort((a, b) => a - b) };
}

/** The chunk routes over the console's typed client (errors become `ApiError`s with the catalog's msgKey). */
export function chunkApiOf(api: ApiClient): ChunkApi {
  return {
    async init(body) {
      return unwrap(await api.POST('/api/v1/sys/file/chunk/init', { body }));
    },
    async sendChunk(uploadId, index, chunk) {
      // The fields must come before the chunk part: the server reads the body once, as it arrives.
      const form = new FormData();
      form.append('uploadId', uploadId);
      form.append('index', String(index));
      form.append('chunk', chunk, `${index}.part`);
      unwrap(
        await api.POST('/api/v1/sys/file/chunk', {
          body: { uploadId, index, chunk: '' },
          bodySerializer: () => form,
        }),
      );
    },
    async complete(body) {
      return unwrap(await api.POST('/api/v1/sys/file/chunk/complete', { body }));
    },
  };
}
