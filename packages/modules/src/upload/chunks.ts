/**
 * Chunked, resumable upload (modules.md "Chunked upload", module `Upload`). Chunks are streamed to disk under
 * `{upload root}/.chunks/<uploadId>/<index>.part`; `complete` streams them in order through the file store (so
 * the extension, size and emptiness checks of single uploads apply again) while hashing, and keeps the file only
 * when the SHA-256 equals the declared one (44006); a missing index answers 44005 naming it.
 *
 * - The upload id is derived from the caller, hash, size and chunk count: an `init` after an interruption finds
 *   the same folder and answers the indexes already received (resume). It is 32 hex characters; anything else
 *   (a path, `..`) is refused before it reaches the file system, and so is a non-numeric index.
 * - Instant upload: a live file with the same hash inside the caller's data scope is copied to a new file row of
 *   the caller (its own name); a file outside the scope is never used, the caller uploads normally, so knowing a
 *   hash never leaks a file. The new row shares the stored bytes (no copy); they go with the last row naming them.
 * - Concurrent completes of one upload: one assembles (an atomic `mkdir` lock), the others wait for its result
 *   (`done.json`) and answer the same row, or the same 44006. The assembler touches its lock every 10 s; a lock
 *   untouched for two minutes (its process died mid-assembly) is taken over by the next complete, and one that goes
 *   without a result (the holder found a chunk missing) is taken too, so the waiter answers what the chunks make.
 *   A holder whose lock was taken over (it stalled) touches nothing of the folder: it drops its own bytes and
 *   waits for the taker's result like any other complete, also when the taker finished first and the chunks it
 *   was reading are gone. A chunk still arriving when a complete ends is dropped once stored (44004, as any chunk
 *   sent after the complete), so no part stays in the finished folder.
 * - Bytes per upload: its chunks together never exceed the declared `totalSize` (44002). Each byte is counted
 *   against that budget before it is written, with the other chunks stored and the bytes other requests are
 *   writing at that moment, so parallel chunks cannot both pass; a chunk sent again replaces its earlier copy
 *   (counted once). The count is kept per upload while chunks of it arrive (chunk-ledger.ts).
 * - Open uploads per caller: at most `Upload:ChunkMaxOpenPerUser` at once (44008 `{maxOpen}` at the init of
 *   another); a resume and an instant upload take no slot, a complete (or a hash mismatch) frees one, and so does
 *   expiry (below). On one instance the bound holds exactly; instances sharing the upload root may each pass it by
 *   one upload when inits of one caller reach them at the same moment, and every upload stays counted afterwards
 *   (chunk-quota.ts says why).
 * - Expiry: an upload folder untouched (no init, no chunk) for `Upload:ChunkRetentionHours` on the service clock is
 *   expired whether or not the clean-up has removed it yet: it no longer counts against the bound, a chunk sent to
 *   it and a complete of it answer 44004, and an `init` of it starts it again from nothing as a new upload (its
 *   stale chunks dropped).
 * - Reclaim: expired upload folders, files deleted longer ago than the retention (rows purged, bytes released unless
 *   another row shares them), and partial files a dead process left in the store's tree go in `reclaim(now)`, which
 *   the scheduled clean-up runs.
 */

import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { DataScopeFilter, FileRepository, SysFileRow } from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';
import { createChunkLedgers } from './chunk-ledger.js';
import { createOpenUploadQuota } from './chunk-quota.js';
import { UploadErrorCode } from './codes.js';
import { extensionOf, type FileStore, type StoredUpload, uploadName } from './file-store.js';

export const UPLOAD_ID = /^[0-9a-f]{32}$/;
export const MAX_CHUNKS = 10_000;
/** The folder a complete holds while it assembles (with an `owner` file it touches). */
const LOCK = 'complete.lock';
/** How often the assembler touches its lock's owner file. */
export const LOCK_HEARTBEAT_MS = 10_000;
/** A lock whose owner file is untouched this long (service clock) belongs to a process that died. */
export const LOCK_STALE_MS = 120_000;

export interface ChunkInit {
  fileHash: string;
  fileName: string;
  totalSize: number;
  chunkCount: number;
}

interface ChunkMeta extends ChunkInit {
  userId: number | null;
  createdAt: string;
}

/** What a complete of the upload made (`done.json`): the file row, or the hashes that did not match. */
type DoneResult = { id: number } | { mismatch: { expected: string; actual: string } };

export interface ChunkUploads {
  /**
   * Starts an upload, resumes the caller's open one of the same file, or answers an instant upload; a new upload
   * when the caller has `maxOpenPerUser` open already answers 44008 `{maxOpen}`.
   */
  init(
    input: ChunkInit,
    caller: { userId: number | null; scope: DataScopeFilter },
  ): Promise<{ uploaded: boolean; file?: SysFileRow; uploadId: string; receivedIndexes: number[] }>;
  /**
   * Stores one chunk (streamed); the index must be below the chunk count, and the upload's chunks together stay
   * within its declared size (44002 `{maxBytes, index, heldBytes}` otherwise; a chunk sent again replaces its copy).
   */
  writeChunk(
    uploadId: string,
    index: string,
    userId: number | null,
    body: AsyncIterable<Uint8Array>,
  ): Promise<void>;
  complete(input: ChunkInit & { uploadId: string }, userId: number | null): Promise<SysFileRow>;
  /** Removes abandoned uploads and files deleted before `now - retention`; answers how many went. */
  reclaim(now: Date): Promise<number>;
}

/** The clean-up the jobs module runs with the other reclaimers. */
export interface Reclaimer {
  name: string;
  reclaim(now: Date): Promise<number>;
}

/** The owner segment of an upload (its id, its index folder in the bound): the user id, or `key` without a user. */
const ownerOf = (userId: number | null) => `${userId ?? 'key'}`;

const invalid = (path: string, message: string) =>
  new BusinessError(ErrorCode.ParamInvalid, { errors: [{ path, message }] });

export function createChunkUploads(options: {
  root: string;
  files: FileStore;
  repo: FileRepository;
  allowedExtensions: readonly string[];
  retentionHours: number;
  /** `Upload:ChunkMaxOpenPerUser`: most open uploads per caller (chunk-quota.ts). */
  maxOpenPerUser: number;
  now: () => Date;
  /** The wait between two looks at another complete's lock (tests pass one they control). @default a timer */
  pause?: (ms: number) => Promise<void>;
  /**
   * Test seam, not for production: awaited by every `init` that is let through the bound, after the upload's marker
   * in the bound's index is written and before its folder is made or reopened, so a test can hold one instance there.
   */
  afterMarked?: (uploadId: string) => Promise<void>;
}): ChunkUploads {
  const base = resolve(options.root, '.chunks');
  const allowed = new Set(options.allowedExtensions.map((e) => e.toLowerCase().replace(/^\./, '')));
  const inFlight = new Map<string, Promise<SysFileRow>>();
  const pause = options.pause ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const retentionMs = options.retentionHours * 3_600_000;
  /** An upload folder untouched longer than the retention (service clock) is expired, reclaimed or not yet. */
  const expired = (mtimeMs: number) => mtimeMs < options.now().getTime() - retentionMs;
  const quota = createOpenUploadQuota({
    base,
    maxOpen: options.maxOpenPerUser,
    isUploadId: (name) => UPLOAD_ID.test(name),
    now: options.now,
    expired,
  });

  function dirOf(uploadId: string): string {
    if (!UPLOAD_ID.test(uploadId)) throw invalid('uploadId', 'not an upload id');
    return join(base, uploadId);
  }

  async function metaOf(uploadId: string, userId: number | null): Promise<ChunkMeta> {
    let meta: ChunkMeta;
    try {
      meta = JSON.parse(await readFile(join(dirOf(uploadId), 'meta.json'), 'utf8')) as ChunkMeta;
    } catch (error) {
      if (error instanceof BusinessError) throw error;
      throw new BusinessError(UploadErrorCode.FileNotFound, { uploadId });
    }
    // Another caller's upload is answered as an unknown one.
    if (meta.userId !== userId) throw new BusinessError(UploadErrorCode.FileNotFound, { uploadId });
    return meta;
  }

  async function received(dir: string): Promise<number[]> {
    const names = await readdir(dir).catch(() => [] as string[]);
    return names
      .map((n) => /^(\d+)\.part$/.exec(n)?.[1])
      .filter((n): n is string => n !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
  }
  const ledgers = createChunkLedgers(received);

  function checkInit(input: ChunkInit): void {
    // The name the store will keep (48000 for control or direction-override characters): refused here, not after
    // every chunk is sent.
    uploadName(input.fileName);
    const ext = extensionOf(input.fileName);
    if (!ext || !allowed.has(ext))
      throw new BusinessError(UploadErrorCode.FileExtNotAllowed, { ext, allowed: [...allowed] });
    if (input.totalSize <= 0) throw new BusinessError(UploadErrorCode.FileEmpty);
    if (input.totalSize > options.files.maxBytes)
      throw new BusinessError(UploadErrorCode.FileTooLarge, { maxBytes: options.files.maxBytes });
    if (input.chunkCount > input.totalSize) throw invalid('chunkCount', 'more chunks than bytes');
  }

  /**
   * A new file of the caller sharing the stored bytes of `source` (instant upload), or undefined when the bytes
   * are gone (the caller then uploads them). Sharing, not copying: a copy made every init a full write of up to
   * `MaxSizeMb` for a request of a hundred bytes, so a holder of the init code alone could fill the disk. The
   * bytes go with the last row naming them (recycle-bin purge, reclaim).
   */
  async function shareOf(source: SysFileRow, fileName: string, userId: number | null) {
    const shared = await options.files.share(source, fileName);
    if (!shared) return undefined;
    const id = await options.repo.insert({ ...shared, createTime: options.now(), createUserId: userId });
    // The last other row may have been purged, and its bytes removed, between the look and the insert.
    if (!(await options.files.share(source, fileName))) {
      await options.repo.softDelete(id);
      await options.repo.purgeDeleted([id]);
      return undefined;
    }
    return (await options.repo.getById(id)) as SysFileRow;
  }

  async function insert(stored: StoredUpload, userId: number | null): Promise<SysFileRow> {
    try {
      const at = options.now();
      const id = await options.repo.insert({ ...stored, createTime: at, createUserId: userId });
      return (await options.repo.getById(id)) as SysFileRow;
    } catch (error) {
      await options.files.remove(stored.storageKey);
      throw error;
    }
  }

  /**
   * Assembles the chunks and inserts the row; undefined when the lock was taken over meanwhile (this process
   * stalled past {@link LOCK_STALE_MS}, its heartbeat unseen): the taker assembles from the folder, so these bytes
   * are dropped, no second row names the upload and the folder is left alone, whether the hash matched or not (the
   * caller answers the taker's result: its row, or the same 44006 through `done.json`).
   */
  async function assemble(
    dir: string,
    meta: ChunkMeta,
    input: ChunkInit & { uploadId: string },
    userId: number | null,
    token: string,
  ): Promise<SysFileRow | undefined> {
    const have = new Set(await received(dir));
    for (let i = 0; i < meta.chunkCount; i += 1)
      if (!have.has(i)) throw new BusinessError(UploadErrorCode.ChunkMissing, { index: i });
    const sink = await options.files.begin(input.fileName);
    try {
      for (let i = 0; i < meta.chunkCount; i += 1)
        for await (const chunk of createReadStream(join(dir, `${i}.part`))) await sink.write(chunk as Buffer);
    } catch (error) {
      await sink.abort();
      // The lock was taken over and the taker finished first (its chunks are gone): answer the taker's result.
      if (!(await holds(dir, token))) return undefined;
      throw error;
    }
    const stored = await sink.finish();
    if (!(await holds(dir, token))) {
      await options.files.remove(stored.storageKey);
      return undefined;
    }
    if (stored.sha256 !== input.fileHash.toLowerCase() || stored.sizeBytes !== meta.totalSize) {
      await options.files.remove(stored.storageKey);
      // The chunks do not make the file: they and the upload's meta are dropped (a chunk or complete sent now
      // answers 44004), the client starts again with an `init`. Only the result stays, for the completes waiting
      // on this one (a holder taken for dead among them), which answer the same 44006.
      const mismatch = { expected: input.fileHash, actual: stored.sha256 };
      // The result first, as below: a chunk stored after it finds it and drops itself; one stored before is removed.
      await writeResult(dir, { mismatch });
      for (const index of have) await rm(join(dir, `${index}.part`), { force: true });
      ledgers.forgetStored(input.uploadId);
      await rm(join(dir, 'meta.json'), { force: true });
      throw new BusinessError(UploadErrorCode.ChunkHashMismatch, mismatch);
    }
    const row = await insert(stored, userId);
    await writeResult(dir, { id: row.id });
    for (const index of have) await rm(join(dir, `${index}.part`), { force: true });
    ledgers.forgetStored(input.uploadId);
    return row;
  }

  /**
   * Writes the upload's result (`done.json`) whole or not at all: a waiter reads it while it is written. Its time is
   * the service clock's, which the bound compares with its markers' (chunk-quota.ts).
   */
  async function writeResult(dir: string, result: DoneResult): Promise<void> {
    const partial = join(dir, `done.json.${randomUUID()}.tmp`);
    await writeFile(partial, JSON.stringify(result));
    await touch(partial);
    await rename(partial, join(dir, 'done.json'));
  }

  /** Another complete holds the lock: its row once it is done, or undefined when the lock went or its owner died. */
  async function waitForDone(dir: string): Promise<SysFileRow | undefined> {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const row = await doneRow(dir);
      if (row) return row;
      const holder = await lockHolder(join(dir, LOCK));
      if (!holder || holder.stale) return undefined;
      await pause(200);
    }
    // Still assembling after a minute (a very large file on a slow disk): the client asks again.
    throw new BusinessError(UploadErrorCode.ChunkMissing, { index: 0 });
  }

  /**
   * The row an earlier complete of this upload made (`done.json`), if it is still there; 44006 when that complete
   * found the chunks not making the declared file.
   */
  async function doneRow(dir: string): Promise<SysFileRow | undefined> {
    const done = await readFile(join(dir, 'done.json'), 'utf8').catch(() => undefined);
    if (!done) return undefined;
    const result = JSON.parse(done) as DoneResult;
    if ('mismatch' in result) throw new BusinessError(UploadErrorCode.ChunkHashMismatch, result.mismatch);
    return options.repo.getById(result.id);
  }

  /**
   * The lock folder (its inode, which a rename keeps and a new `mkdir` does not) and whether it is stale: the
   * assembler touches its owner file every {@link LOCK_HEARTBEAT_MS}, so a lock untouched for {@link LOCK_STALE_MS}
   * on the service clock belongs to a process that died (killed, its machine lost), which used to block the upload
   * until its retention ended. A folder without its owner file (being made, or left by a death in between) counts
   * from the folder's own time.
   */
  async function lockHolder(lock: string): Promise<{ ino: number; stale: boolean } | undefined> {
    const folder = await stat(lock).catch(() => undefined);
    if (!folder) return undefined;
    const owner = await stat(join(lock, 'owner')).catch(() => undefined);
    const touched = Math.max(folder.mtimeMs, owner?.mtimeMs ?? 0);
    return { ino: folder.ino, stale: options.now().getTime() - touched > LOCK_STALE_MS };
  }

  /** True while the upload's lock is the one `token` took (its owner file names it). */
  async function holds(dir: string, token: string): Promise<boolean> {
    return (await readFile(join(dir, LOCK, 'owner'), 'utf8').catch(() => undefined)) === token;
  }

  /**
   * Takes the upload's assembly lock (an atomic `mkdir`), setting a dead owner's aside first; answers the token its
   * owner file holds, undefined when another holds the lock.
   */
  async function takeLock(dir: string, uploadId: string): Promise<string | undefined> {
    const lock = join(dir, LOCK);
    try {
      await mkdir(lock);
    } catch (error) {
      // The upload went meanwhile (its chunks did not make the declared file, or it was reclaimed).
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new BusinessError(UploadErrorCode.FileNotFound, { uploadId });
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = await lockHolder(lock);
      if (!holder?.stale) return undefined;
      // Of several that found it stale, one renames it away; that one checks it moved the dead owner's lock and
      // not one a faster taker made meanwhile (which goes back).
      const aside = join(dir, `${LOCK}.${randomUUID()}.dead`);
      try {
        await rename(lock, aside);
      } catch {
        return undefined;
      }
      const moved = await stat(aside).catch(() => undefined);
      if (moved?.ino !== holder.ino) {
        await rename(aside, lock).catch(() => {});
        return undefined;
      }
      await rm(aside, { recursive: true, force: true });
      try {
        await mkdir(lock);
      } catch {
        return undefined;
      }
    }
    const owner = join(lock, 'owner');
    const token = randomUUID();
    await writeFile(owner, token);
    // Both on the service clock: the folder's time counts until the owner file's is newer.
    await Promise.all([touch(owner), touch(lock)]);
    return token;
  }

  /** Sets a path's times to the service clock's now (the lock's heartbeat, an upload's last activity). */
  function touch(path: string): Promise<void> {
    const at = options.now();
    return utimes(path, at, at).catch(() => {});
  }

  async function complete(
    input: ChunkInit & { uploadId: string },
    userId: number | null,
  ): Promise<SysFileRow> {
    const dir = dirOf(input.uploadId);
    const meta = await metaOf(input.uploadId, userId);
    if (meta.fileHash !== input.fileHash.toLowerCase() || meta.chunkCount !== input.chunkCount)
      throw invalid('fileHash', 'does not match the upload');
    checkInit({ ...input, totalSize: meta.totalSize });
    // An expired upload is not assembled, as it takes no chunk (44004; an `init` starts it again); a finished one
    // still answers its row.
    const [folder, finished] = await Promise.all([
      stat(dir).catch(() => undefined),
      stat(join(dir, 'done.json')).then(
        () => true,
        () => false,
      ),
    ]);
    if (!finished && (!folder || expired(folder.mtimeMs)))
      throw new BusinessError(UploadErrorCode.FileNotFound, { uploadId: input.uploadId });
    // A lock that goes without a result (its holder failed: a chunk missing, a wrong hash) or whose holder died is
    // taken here, so this request answers what the chunks make, not a guess; a few rounds at most.
    for (let round = 0; round < 3; round += 1) {
      const done = await doneRow(dir);
      if (done) return done;
      const token = await takeLock(dir, input.uploadId);
      if (token) {
        const owner = join(dir, LOCK, 'owner');
        const heartbeat = setInterval(() => void touch(owner), LOCK_HEARTBEAT_MS);
        heartbeat.unref();
        try {
          const row = await assemble(dir, meta, input, userId, token);
          if (row) return row;
        } finally {
          clearInterval(heartbeat);
          // Only its own lock: one taken over meanwhile is the taker's to remove.
          if (await holds(dir, token)) await rm(join(dir, LOCK), { recursive: true, force: true });
        }
      }
      const row = await waitForDone(dir);
      if (row) return row;
    }
    throw new BusinessError(UploadErrorCode.ChunkMissing, { index: 0 });
  }

  return {
    async init(input, caller) {
      checkInit(input);
      const fileHash = input.fileHash.toLowerCase();
      const known = await options.repo.findByHash(fileHash, caller.scope);
      const file =
        known && known.sizeBytes === input.totalSize
          ? await shareOf(known, input.fileName, caller.userId)
          : undefined;
      if (file) return { uploaded: true, file, uploadId: '', receivedIndexes: [] };
      // The routes always pass a user; a programmatic caller without one keeps its uploads under `key`.
      const owner = ownerOf(caller.userId);
      const uploadId = createHash('sha256')
        .update(`${owner}:${fileHash}:${input.totalSize}:${input.chunkCount}`)
        .digest('hex')
        .slice(0, 32);
      const dir = dirOf(uploadId);
      // A new upload (or a finished one started again) takes a slot of the caller's bound; a resume does not.
      return quota.admit(owner, uploadId, async () => {
        await options.afterMarked?.(uploadId);
        // An expired upload (untouched past the retention, not reclaimed yet) starts again from nothing, as if the
        // clean-up had already run: its stale chunks are not resumed.
        const folder = await stat(dir).catch(() => undefined);
        if (folder && expired(folder.mtimeMs)) {
          for (const name of await readdir(dir).catch(() => [] as string[]))
            if (name === 'meta.json' || /^\d+\.part$/.test(name)) await rm(join(dir, name), { force: true });
          ledgers.forgetStored(uploadId);
        }
        await mkdir(dir, { recursive: true });
        const meta: ChunkMeta = {
          ...input,
          fileHash,
          userId: caller.userId,
          createdAt: options.now().toISOString(),
        };
        await writeFile(join(dir, 'meta.json'), JSON.stringify(meta), { flag: 'wx' }).catch(() => {});
        await rm(join(dir, 'done.json'), { force: true });
        // The retention period counts from the last activity on the service clock.
        await touch(dir);
        return { uploaded: false, uploadId, receivedIndexes: await received(dir) };
      });
    },

    async writeChunk(uploadId, rawIndex, userId, body) {
      if (!/^\d{1,5}$/.test(rawIndex)) throw invalid('index', 'not a chunk index');
      const index = Number(rawIndex);
      const dir = dirOf(uploadId);
      const meta = await metaOf(uploadId, userId);
      if (index >= meta.chunkCount) throw invalid('index', `must be below ${meta.chunkCount}`);
      // A completed or expired upload takes no more bytes: its folder no longer counts against the caller's bound,
      // so chunks sent to it would be staged outside that bound until the clean-up. An `init` starts it again.
      const [completed, folder] = await Promise.all([
        stat(join(dir, 'done.json')).then(
          () => true,
          () => false,
        ),
        stat(dir).catch(() => undefined),
      ]);
      if (completed || !folder || expired(folder.mtimeMs))
        throw new BusinessError(UploadErrorCode.FileNotFound, { uploadId });
      // A folder that receives bytes is named in the bound's index, whatever happened to its marker.
      await quota.mark(ownerOf(userId), uploadId);
      const ledger = await ledgers.enter(uploadId, dir);
      // Bytes of this request counted in the ledger's `writingBytes`, until they are stored or dropped.
      let size = 0;
      try {
        // Unique per request: two requests for one index at once must not share (or fail to create) a file.
        const partial = join(dir, `${index}.${randomUUID()}.tmp`);
        const out = createWriteStream(partial, { flags: 'wx' });
        // A failed open or write rejects the request (an 'error' event without a listener would end the process).
        const failed = new Promise<never>((_, reject) => out.once('error', reject));
        failed.catch(() => {});
        try {
          for await (const chunk of body) {
            // Checked before the bytes reach the disk: the other chunks (this index's earlier copy is replaced,
            // so it does not count) and everything being written now, this request's bytes included.
            const held = ledger.storedBytes - (ledger.stored.get(index) ?? 0) + ledger.writingBytes;
            if (held + chunk.byteLength > meta.totalSize)
              throw new BusinessError(UploadErrorCode.FileTooLarge, {
                maxBytes: meta.totalSize,
                index,
                heldBytes: held,
              });
            ledger.writingBytes += chunk.byteLength;
            size += chunk.byteLength;
            if (!out.write(chunk)) await Promise.race([once(out, 'drain'), failed]);
          }
          await Promise.race([
            new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res()))),
            failed,
          ]);
          if (size === 0) throw new BusinessError(UploadErrorCode.FileEmpty);
          // Atomic: a chunk is either absent or whole (an interrupted one never counts as received).
          await rename(partial, join(dir, `${index}.part`));
          // A complete that ended while this chunk arrived (its file made, or its hash found wrong) wrote `done.json`
          // and then removed the chunks it read: a copy stored after that would stay in a folder no longer counted
          // against the bound until the clean-up. It goes, answered as any chunk after a complete.
          if ((await stat(join(dir, 'done.json')).catch(() => undefined)) !== undefined) {
            await rm(join(dir, `${index}.part`), { force: true });
            throw new BusinessError(UploadErrorCode.FileNotFound, { uploadId });
          }
        } catch (error) {
          out.destroy();
          // The file may still be opening: removed only once the stream is closed, or it would appear after the rm.
          if (!out.closed) await once(out, 'close').catch(() => {});
          await rm(partial, { force: true });
          throw error;
        }
        // Stored: its bytes move from `writingBytes` to `stored`, replacing the index's earlier copy.
        ledger.storedBytes += size - (ledger.stored.get(index) ?? 0);
        ledger.stored.set(index, size);
      } finally {
        ledger.writingBytes -= size;
        ledgers.leave(uploadId);
      }
      await touch(dir);
    },

    complete(input, userId) {
      // Keyed by caller too: another caller naming this id must not be handed the running result.
      const key = `${ownerOf(userId)}:${input.uploadId}`;
      const running = inFlight.get(key);
      if (running) return running;
      const work = complete(input, userId).finally(() => inFlight.delete(key));
      inFlight.set(key, work);
      return work;
    },

    async reclaim(now) {
      const cutoff = new Date(now.getTime() - retentionMs);
      let count = 0;
      for (const name of await readdir(base).catch(() => [] as string[])) {
        if (!UPLOAD_ID.test(name)) continue;
        const info = await stat(join(base, name)).catch(() => undefined);
        if (info && info.mtime < cutoff) {
          await rm(join(base, name), { recursive: true, force: true });
          count += 1;
        }
      }
      // The bound's index of the uploads just removed (and of finished ones), so it does not outlive them.
      await quota.prune();
      for (;;) {
        const rows = await options.repo.deletedBefore(cutoff, 500);
        if (rows.length === 0) break;
        count += await options.repo.purgeDeleted(rows.map((r) => r.id));
        // The rows first: bytes shared with a row still there (instant upload) stay.
        for (const key of new Set(rows.map((r) => r.storageKey)))
          await options.files.release(key, () => options.repo.storageKeyInUse(key));
        if (rows.length < 500) break;
      }
      count += await options.files.reclaimLeftovers(cutoff);
      return count;
    },
  };
}
