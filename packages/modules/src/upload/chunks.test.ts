/**
 * The chunked upload's assembly lock and the release of shared bytes, against one upload root on disk with an
 * in-memory file table (two `createChunkUploads` on one root stand for two instances): a lock left by a process
 * that died mid-assembly is taken over once its owner file is stale, a live one is respected and kept fresh by its
 * holder's heartbeat, one that goes without a result is taken by the waiter; a purge racing an instant upload of
 * the same bytes never leaves a row without its bytes; a dead process's partial files are reclaimed; the bound on a
 * user's open uploads holds for parallel inits, lets resumes and instant uploads through and frees a slot when an
 * upload completes, fails its hash or is reclaimed.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileRepository, NewFile, SysFileRow } from '@svc/data';
import { ALL_DATA_SCOPE } from '@svc/data';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOpenUploadQuota, MARKER_GRACE_MS } from './chunk-quota.js';
import { createChunkUploads, LOCK_HEARTBEAT_MS, LOCK_STALE_MS } from './chunks.js';
import { createFileStore, type FileStore } from './file-store.js';

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
async function* bodyOf(bytes: Uint8Array) {
  yield bytes;
}

/** What the chunked upload asks of the file table, in memory. */
function memoryFiles(now: () => Date) {
  const rows = new Map<number, SysFileRow>();
  const deletedAt = new Map<number, Date>();
  let next = 1;
  const repo = {
    async insert(row: NewFile) {
      const id = next++;
      rows.set(id, { ...row, id, isDelete: false } as unknown as SysFileRow);
      return id;
    },
    async getById(id: number) {
      const row = rows.get(id);
      return row && !row.isDelete ? row : undefined;
    },
    async findByHash(sha256: string) {
      return [...rows.values()].reverse().find((r) => !r.isDelete && r.sha256 === sha256);
    },
    async softDelete(id: number) {
      const row = rows.get(id);
      if (!row || row.isDelete) return false;
      row.isDelete = true;
      deletedAt.set(id, now());
      return true;
    },
    async purgeDeleted(ids: readonly number[]) {
      let count = 0;
      for (const id of ids) if (rows.get(id)?.isDelete && rows.delete(id)) count += 1;
      return count;
    },
    async deletedBefore(cutoff: Date, limit: number) {
      return [...rows.values()]
        .filter((r) => r.isDelete && (deletedAt.get(r.id) as Date) < cutoff)
        .slice(0, limit);
    },
    async storageKeyInUse(key: string) {
      return [...rows.values()].some((r) => r.storageKey === key);
    },
  };
  return { rows, repo: repo as unknown as FileRepository & typeof repo };
}

const content = new Uint8Array(3000).map((_, i) => (i * 13) % 251);
const hash = sha(content);
const start = { fileHash: hash, fileName: 'data.txt', totalSize: 3000, chunkCount: 2 };

function setup(
  options: {
    pause?: (ms: number) => Promise<void>;
    files?: (store: FileStore) => FileStore;
    maxOpenPerUser?: number;
  } = {},
) {
  const root = mkdtempSync(join(tmpdir(), 'svc-chunks-'));
  const state = { clock: new Date('2026-05-01T10:00:00Z').getTime() };
  const now = () => new Date(state.clock);
  const table = memoryFiles(now);
  const store = createFileStore({ root, maxBytes: 1 << 20, allowedExtensions: ['txt'], now });
  const instance = (
    pause = options.pause,
    files = options.files,
    afterMarked?: (uploadId: string) => Promise<void>,
  ) =>
    createChunkUploads({
      root,
      files: files ? files(store) : store,
      repo: table.repo,
      allowedExtensions: ['txt'],
      retentionHours: 24,
      maxOpenPerUser: options.maxOpenPerUser ?? 16,
      now,
      ...(pause ? { pause } : {}),
      ...(afterMarked ? { afterMarked } : {}),
    });
  const uploads = instance();
  const caller = { userId: 1, scope: ALL_DATA_SCOPE };
  async function uploaded(): Promise<string> {
    const { uploadId } = await uploads.init(start, caller);
    await uploads.writeChunk(uploadId, '0', 1, bodyOf(content.subarray(0, 1500)));
    await uploads.writeChunk(uploadId, '1', 1, bodyOf(content.subarray(1500)));
    return uploadId;
  }
  /** A completed file deleted longer ago than the retention period: the next reclaim purges it. */
  async function purgeable(): Promise<SysFileRow> {
    const row = await uploads.complete({ ...start, uploadId: await uploaded() }, 1);
    await table.repo.softDelete(row.id);
    state.clock += 25 * 3_600_000;
    return row;
  }
  const lockOf = (uploadId: string) => join(root, '.chunks', uploadId, 'complete.lock');
  /** A lock as a process holding it left it: its owner file, last touched at the service clock's now. */
  function leaveLock(uploadId: string, token: string): string {
    mkdirSync(lockOf(uploadId));
    const owner = join(lockOf(uploadId), 'owner');
    writeFileSync(owner, token);
    utimesSync(owner, now(), now());
    utimesSync(lockOf(uploadId), now(), now());
    return owner;
  }
  async function bytesOf(row: SysFileRow): Promise<Buffer | undefined> {
    const opened = await store.open(row.storageKey);
    return opened ? Buffer.from(await new Response(opened.body).arrayBuffer()) : undefined;
  }
  return {
    root,
    state,
    now,
    table,
    store,
    instance,
    uploads,
    caller,
    uploaded,
    purgeable,
    lockOf,
    leaveLock,
    bytesOf,
  };
}

/** A file store whose first write stalls until `release()`, as a large file on a slow disk would. */
function stalling() {
  let wrote!: () => void;
  const writing = new Promise<void>((r) => {
    wrote = r;
  });
  let release!: () => void;
  const released = new Promise<void>((r) => {
    release = r;
  });
  const files = (store: FileStore): FileStore => ({
    ...store,
    async begin(name) {
      const sink = await store.begin(name);
      return {
        ...sink,
        async write(chunk) {
          wrote();
          await released;
          return sink.write(chunk);
        },
      };
    },
  });
  return { files, writing, release };
}

/** A pause the test lets go of: `polled` resolves when the waiter has looked at the lock and pauses. */
function heldPauses() {
  let polled!: () => void;
  let looked = new Promise<void>((r) => {
    polled = r;
  });
  const waiting: Array<() => void> = [];
  return {
    pause: () =>
      new Promise<void>((resume) => {
        waiting.push(resume);
        polled();
      }),
    /** Resolves once the waiter has paused (again). */
    get polled() {
      return looked;
    },
    resume() {
      looked = new Promise<void>((r) => {
        polled = r;
      });
      for (const resume of waiting.splice(0)) resume();
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('chunked upload: the assembly lock', () => {
  it('takes over a lock whose holder died mid-assembly once its owner file is stale', async () => {
    const t = setup();
    const uploadId = await t.uploaded();
    t.leaveLock(uploadId, 'dead-process');
    t.state.clock += LOCK_STALE_MS + 1_000;
    const row = await t.uploads.complete({ ...start, uploadId }, 1);
    expect(row.sha256).toBe(hash);
    expect((await t.bytesOf(row))?.equals(Buffer.from(content))).toBe(true);
    expect(existsSync(t.lockOf(uploadId))).toBe(false);
  });

  it('takes over a stale lock folder its holder died before naming itself in', async () => {
    const t = setup();
    const uploadId = await t.uploaded();
    mkdirSync(t.lockOf(uploadId));
    utimesSync(t.lockOf(uploadId), t.now(), t.now());
    t.state.clock += LOCK_STALE_MS + 1_000;
    const row = await t.uploads.complete({ ...start, uploadId }, 1);
    expect((await t.bytesOf(row))?.equals(Buffer.from(content))).toBe(true);
  });

  it('waits for a live holder and takes the lock once the holder stops touching it', async () => {
    const held = heldPauses();
    const t = setup({ pause: held.pause });
    const uploadId = await t.uploaded();
    const owner = t.leaveLock(uploadId, 'alive');
    const answer = t.uploads.complete({ ...start, uploadId }, 1);
    await held.polled;
    // The waiter looked and left the holder's lock alone.
    expect(readFileSync(owner, 'utf8')).toBe('alive');
    t.state.clock += LOCK_STALE_MS - 1_000;
    held.resume();
    await held.polled;
    expect(readFileSync(owner, 'utf8')).toBe('alive');
    // Two minutes without a touch: the holder is taken for dead.
    t.state.clock += 2_000;
    held.resume();
    const row = await answer;
    expect(row.sha256).toBe(hash);
    expect(existsSync(owner)).toBe(false);
  });

  it('assembles itself when the holder lets go without a result (not 44005 for a chunk it has)', async () => {
    const held = heldPauses();
    const t = setup({ pause: held.pause });
    const uploadId = await t.uploaded();
    t.leaveLock(uploadId, 'failed-holder');
    const answer = t.uploads.complete({ ...start, uploadId }, 1);
    await held.polled;
    // The holder failed (a database error, say) and removed its lock without writing done.json.
    rmSync(t.lockOf(uploadId), { recursive: true });
    held.resume();
    const row = await answer;
    expect((await t.bytesOf(row))?.equals(Buffer.from(content))).toBe(true);
  });

  it('keeps its lock fresh while it assembles: another instance waits and answers the same row', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    // The first instance's store stalls on its first write.
    const slow = stalling();
    const held = heldPauses();
    const t = setup({ files: slow.files });
    const uploadId = await t.uploaded();
    const first = t.uploads.complete({ ...start, uploadId }, 1);
    await slow.writing;
    const owner = join(t.lockOf(uploadId), 'owner');
    const token = readFileSync(owner, 'utf8');
    // Three minutes pass; the holder's heartbeat touches its owner file meanwhile.
    t.state.clock += LOCK_STALE_MS + 60_000;
    vi.advanceTimersByTime(LOCK_HEARTBEAT_MS);
    while (statSync(owner).mtimeMs !== t.state.clock) await new Promise((r) => setImmediate(r));
    const other = t.instance(held.pause);
    const second = other.complete({ ...start, uploadId }, 1);
    await held.polled;
    expect(readFileSync(owner, 'utf8')).toBe(token);
    slow.release();
    const row = await first;
    held.resume();
    expect((await second).id).toBe(row.id);
    expect(t.table.rows.size).toBe(1);
  });

  it('a holder taken for dead while it stalled leaves the new lock alone and adds no second row', async () => {
    // The heartbeat never beats (its interval is faked and not advanced): the stalled holder looks dead.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const stalled = stalling();
    const taker = stalling();
    const held = heldPauses();
    const t = setup({ files: stalled.files, pause: held.pause });
    const uploadId = await t.uploaded();
    const first = t.uploads.complete({ ...start, uploadId }, 1);
    await stalled.writing;
    const owner = join(t.lockOf(uploadId), 'owner');
    const token = readFileSync(owner, 'utf8');
    t.state.clock += LOCK_STALE_MS + 1_000;
    const second = t.instance(undefined, taker.files).complete({ ...start, uploadId }, 1);
    await taker.writing;
    const takerToken = readFileSync(owner, 'utf8');
    expect(takerToken).not.toBe(token);
    // The stalled holder goes on: it finds the lock another's, drops its bytes and waits for the taker's row.
    stalled.release();
    expect(await Promise.race([held.polled.then(() => 'waits'), first.then(() => 'answered')])).toBe('waits');
    expect(readFileSync(owner, 'utf8')).toBe(takerToken);
    taker.release();
    const row = await second;
    held.resume();
    expect((await first).id).toBe(row.id);
    expect(t.table.rows.size).toBe(1);
    expect((await t.bytesOf(row))?.equals(Buffer.from(content))).toBe(true);
    // Only the taker's bytes are kept: the stalled holder's copy went.
    expect(readdirSync(join(t.root, row.storageKey, '..')).length).toBe(1);
  });

  it('a holder taken for dead that meets a hash mismatch leaves the folder to the taker; both answer 44006', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const stalled = stalling();
    const taker = stalling();
    const held = heldPauses();
    const t = setup({ files: stalled.files, pause: held.pause });
    // The chunks do not make the declared file.
    const wrong = { ...start, fileHash: sha(new Uint8Array([1])) };
    const { uploadId } = await t.uploads.init(wrong, t.caller);
    await t.uploads.writeChunk(uploadId, '0', 1, bodyOf(content.subarray(0, 1500)));
    await t.uploads.writeChunk(uploadId, '1', 1, bodyOf(content.subarray(1500)));
    const folder = join(t.root, '.chunks', uploadId);
    const first = t.uploads.complete({ ...wrong, uploadId }, 1);
    first.catch(() => {});
    await stalled.writing;
    t.state.clock += LOCK_STALE_MS + 1_000;
    const second = t.instance(undefined, taker.files).complete({ ...wrong, uploadId }, 1);
    second.catch(() => {});
    await taker.writing;
    const takerToken = readFileSync(join(t.lockOf(uploadId), 'owner'), 'utf8');
    // The stalled holder finishes, finds the hash wrong and the lock another's: it drops only its own bytes and
    // waits for the taker, which is still reading the chunks from the folder.
    stalled.release();
    expect(await Promise.race([held.polled.then(() => 'waits'), first.then(() => 'answered')])).toBe('waits');
    expect(readdirSync(folder).sort()).toEqual(['0.part', '1.part', 'complete.lock', 'meta.json']);
    expect(readFileSync(join(t.lockOf(uploadId), 'owner'), 'utf8')).toBe(takerToken);
    taker.release();
    await expect(second).rejects.toMatchObject({ code: 44006 });
    // The waiter answers the taker's result: the same mismatch, not an unknown upload (44004).
    held.resume();
    await expect(first).rejects.toMatchObject({ code: 44006 });
    expect(t.table.rows.size).toBe(0);
    // Neither copy of the assembled bytes is kept, and the chunks are dropped.
    const stored = (readdirSync(t.root, { recursive: true }) as string[]).filter(
      (name) => !name.startsWith('.chunks') && statSync(join(t.root, name)).isFile(),
    );
    expect(stored).toEqual([]);
    expect(readdirSync(folder)).toEqual(['done.json']);
    // Starting again opens the upload afresh.
    expect(await t.uploads.init(wrong, t.caller)).toMatchObject({ uploadId, receivedIndexes: [] });
  });

  it.each([
    ['a hash mismatch', true],
    ['a good hash', false],
  ])(
    'a holder taken for dead whose taker finished first answers the taker’s result, not ENOENT (%s)',
    async (_, wrongHash) => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      const stalled = stalling();
      const taker = stalling();
      const t = setup({ files: stalled.files });
      const input = wrongHash ? { ...start, fileHash: sha(new Uint8Array([1])) } : start;
      const { uploadId } = await t.uploads.init(input, t.caller);
      await t.uploads.writeChunk(uploadId, '0', 1, bodyOf(content.subarray(0, 1500)));
      await t.uploads.writeChunk(uploadId, '1', 1, bodyOf(content.subarray(1500)));
      const folder = join(t.root, '.chunks', uploadId);
      // The holder stalls inside its first chunk and is taken for dead.
      const first = t.uploads.complete({ ...input, uploadId }, 1);
      first.catch(() => {});
      await stalled.writing;
      t.state.clock += LOCK_STALE_MS + 1_000;
      const second = t.instance(undefined, taker.files).complete({ ...input, uploadId }, 1);
      second.catch(() => {});
      await taker.writing;
      // The taker finishes before the stalled holder goes on: the chunks are gone, its result is written.
      taker.release();
      const row = wrongHash ? undefined : await second;
      if (wrongHash) await expect(second).rejects.toMatchObject({ code: 44006 });
      expect(readdirSync(folder).filter((name) => name.endsWith('.part'))).toEqual([]);
      // The stalled holder reads on, finds its next chunk gone and the lock another's: the taker's result.
      stalled.release();
      if (wrongHash) await expect(first).rejects.toMatchObject({ code: 44006 });
      else expect((await first).id).toBe(row?.id);
      expect(t.table.rows.size).toBe(wrongHash ? 0 : 1);
      // Only the taker's bytes are kept (none after a mismatch): the stalled holder's partial copy went.
      const stored = (readdirSync(t.root, { recursive: true }) as string[]).filter(
        (name) => !name.startsWith('.chunks') && statSync(join(t.root, name)).isFile(),
      );
      expect(stored).toEqual(row ? [row.storageKey] : []);
    },
  );
});

describe('chunked upload: shared bytes and leftovers', () => {
  it('keeps the bytes of an instant upload that shares them while the last other row is purged', async () => {
    const t = setup();
    const original = await t.purgeable();
    // The purge finds no row naming the bytes; before it acts, an instant upload of the same hash (found while the
    // original was still live) inserts its row.
    const inUse = t.table.repo.storageKeyInUse;
    let shared: SysFileRow | undefined;
    let looks = 0;
    t.table.repo.storageKeyInUse = async (key) => {
      const answer = await inUse(key);
      looks += 1;
      if (looks === 1) {
        const stored = await t.store.share(original, 'copy.txt');
        expect(stored).toBeDefined();
        const id = await t.table.repo.insert({
          ...(stored as NewFile),
          createTime: t.now(),
          createUserId: 2,
        });
        shared = await t.table.repo.getById(id);
      }
      return answer;
    };
    expect(await t.uploads.reclaim(t.now())).toBeGreaterThanOrEqual(1);
    expect(t.table.rows.has(original.id)).toBe(false);
    expect(shared).toBeDefined();
    expect((await t.bytesOf(shared as SysFileRow))?.equals(Buffer.from(content))).toBe(true);
  });

  it('an instant upload that looks while the bytes are set aside uploads them instead of naming them', async () => {
    const t = setup();
    const original = await t.purgeable();
    const inUse = t.table.repo.storageKeyInUse;
    let looks = 0;
    let answer: Awaited<ReturnType<typeof t.uploads.init>> | undefined;
    t.table.repo.storageKeyInUse = async (key) => {
      looks += 1;
      // The release's second look: the bytes are set aside, so the instant upload finds them gone.
      if (looks === 2) {
        t.table.repo.storageKeyInUse = inUse;
        t.table.repo.findByHash = async () => original;
        answer = await t.uploads.init(
          { ...start, fileName: 'late.txt' },
          { userId: 2, scope: ALL_DATA_SCOPE },
        );
      }
      return inUse(key);
    };
    await t.uploads.reclaim(t.now());
    expect(answer).toMatchObject({ uploaded: false });
    // No row is left naming bytes that are gone.
    for (const row of t.table.rows.values()) expect(await t.bytesOf(row)).toBeDefined();
    expect(t.table.rows.size).toBe(0);
  });

  it('reclaims the partial files a dead process left in the store, and nothing else', async () => {
    const t = setup();
    const month = join(t.root, '2026', '05');
    mkdirSync(month, { recursive: true });
    const old = new Date(t.state.clock - 2 * 86_400_000);
    const name = (n: number) => String(n).repeat(32);
    // A stored file whose allowed extension is `part` is no leftover.
    const names = [
      `${name(1)}.txt.part`,
      `${name(2)}.txt.0123456789abcdef.gone`,
      `${name(3)}.txt`,
      `${name(4)}.part`,
      `${name(5)}.txt.part`,
    ];
    for (const file of names) writeFileSync(join(month, file), 'x');
    for (const file of names.slice(0, 4)) utimesSync(join(month, file), old, old);
    utimesSync(join(month, names[4] as string), t.now(), t.now());
    mkdirSync(join(t.root, 'other'));
    writeFileSync(join(t.root, 'other', 'd.part'), 'x');
    utimesSync(join(t.root, 'other', 'd.part'), old, old);
    expect(await t.uploads.reclaim(t.now())).toBe(2);
    expect(names.map((file) => existsSync(join(month, file)))).toEqual([false, false, true, true, true]);
    expect(existsSync(join(t.root, 'other', 'd.part'))).toBe(true);
  });
});

describe('chunked upload: open uploads per user', () => {
  /** An upload of its own file (`n` makes the hash), `size` bytes in one chunk. */
  const other = (n: number, size = 10) => ({
    fileHash: sha(new Uint8Array(size).fill(n)),
    fileName: `f${n}.txt`,
    totalSize: size,
    chunkCount: 1,
  });
  const codeOf = (p: Promise<unknown>) =>
    p.then(
      () => 0,
      (error: { code?: number }) => error.code,
    );

  it('refuses a new upload past the bound with 44008, resumes an open one, and frees a slot on complete', async () => {
    const t = setup({ maxOpenPerUser: 3 });
    const ids = [];
    for (const n of [1, 2, 3]) ids.push((await t.uploads.init(other(n), t.caller)).uploadId);
    await expect(t.uploads.init(other(4), t.caller)).rejects.toMatchObject({
      code: 44008,
      args: { maxOpen: 3 },
    });
    // A resume of an open upload at the bound answers its received chunks.
    await t.uploads.writeChunk(ids[0] as string, '0', 1, bodyOf(new Uint8Array(10).fill(1)));
    expect(await t.uploads.init(other(1), t.caller)).toMatchObject({
      uploaded: false,
      uploadId: ids[0],
      receivedIndexes: [0],
    });
    // Another user has bounds of their own.
    expect(await t.uploads.init(other(4), { userId: 2, scope: ALL_DATA_SCOPE })).toMatchObject({
      uploaded: false,
    });
    // Completing one frees its slot; an instant upload of its file takes none.
    const row = await t.uploads.complete({ ...other(1), uploadId: ids[0] as string }, 1);
    const instant = await t.uploads.init({ ...other(1), fileName: 'again.txt' }, t.caller);
    expect(instant).toMatchObject({ uploaded: true });
    expect(await t.uploads.init(other(4), t.caller)).toMatchObject({ uploaded: false });
    expect(await codeOf(t.uploads.init(other(5), t.caller))).toBe(44008);
    // A hash mismatch ends the upload too.
    await t.uploads.writeChunk(ids[1] as string, '0', 1, bodyOf(new Uint8Array(10).fill(9)));
    expect(await codeOf(t.uploads.complete({ ...other(2), uploadId: ids[1] as string }, 1))).toBe(44006);
    expect(await t.uploads.init(other(5), t.caller)).toMatchObject({ uploaded: false });
    // A finished upload started again (its file gone) is a new one: it needs a slot.
    for (const id of [row.id, instant.file?.id as number]) await t.table.repo.softDelete(id);
    expect(await codeOf(t.uploads.init(other(1), t.caller))).toBe(44008);
  });

  it('a completed upload takes no more chunks (its folder is outside the bound)', async () => {
    const t = setup({ maxOpenPerUser: 1 });
    const { uploadId } = await t.uploads.init(other(1), t.caller);
    await t.uploads.writeChunk(uploadId, '0', 1, bodyOf(new Uint8Array(10).fill(1)));
    await t.uploads.complete({ ...other(1), uploadId }, 1);
    expect(await t.uploads.init(other(2), t.caller)).toMatchObject({ uploaded: false });
    // A chunk sent to the finished upload is refused and nothing is staged in its folder.
    await expect(
      t.uploads.writeChunk(uploadId, '0', 1, bodyOf(new Uint8Array(10).fill(7))),
    ).rejects.toMatchObject({ code: 44004, args: { uploadId } });
    const staged = readdirSync(join(t.root, '.chunks', uploadId)).filter((n) => /\.(part|tmp)$/.test(n));
    expect(staged).toEqual([]);
  });

  it('lets exactly the free slots through when one user inits in parallel', async () => {
    const t = setup({ maxOpenPerUser: 4 });
    await t.uploads.init(other(1), t.caller);
    const codes = await Promise.all(
      [2, 3, 4, 5, 6, 7, 8].map((n) => codeOf(t.uploads.init(other(n), t.caller))),
    );
    expect(codes.filter((c) => c === 0)).toHaveLength(3);
    expect(codes.filter((c) => c === 44008)).toHaveLength(4);
    const open = readdirSync(join(t.root, '.chunks')).filter((name) =>
      existsSync(join(t.root, '.chunks', name, 'meta.json')),
    );
    expect(open).toHaveLength(4);
    // Parallel resumes of open uploads at the bound all pass.
    const resumed = await Promise.all([1, 1, 2, 2].map((n) => codeOf(t.uploads.init(other(n), t.caller))));
    expect(resumed).toEqual([0, 0, 0, 0]);
  });

  it('the clean-up drops the index of uploads it reclaimed, and their slots are free', async () => {
    const t = setup({ maxOpenPerUser: 2 });
    await t.uploads.init(other(1), t.caller);
    await t.uploads.init(other(2), t.caller);
    expect(await codeOf(t.uploads.init(other(3), t.caller))).toBe(44008);
    t.state.clock += 25 * 3_600_000;
    expect(await t.uploads.reclaim(t.now())).toBe(2);
    // The user's index folder stays (removing it could race another instance's marker write), empty.
    expect(readdirSync(join(t.root, '.chunks', '.open'))).toEqual(['1']);
    expect(readdirSync(join(t.root, '.chunks', '.open', '1'))).toEqual([]);
    expect(await t.uploads.init(other(3), t.caller)).toMatchObject({ uploaded: false });
  });

  /** An instance whose inits of new uploads wait after writing their marker until `go()` (or `die()`). */
  function heldAfterMarker(t: ReturnType<typeof setup>) {
    let marked!: () => void;
    const reached = new Promise<void>((r) => {
      marked = r;
    });
    let go!: () => void;
    let die!: (error: Error) => void;
    const gate = new Promise<void>((resolve, reject) => {
      go = resolve;
      die = reject;
    });
    const instance = t.instance(undefined, undefined, async () => {
      marked();
      await gate;
    });
    return { instance, reached, go, die };
  }

  it('another instance counts an upload whose marker is written and folder not yet, and keeps its marker', async () => {
    const t = setup({ maxOpenPerUser: 1 });
    const b = heldAfterMarker(t);
    // Instance B starts an upload and is held between its marker and its folder.
    const held = b.instance.init(other(1), t.caller);
    held.catch(() => {});
    await b.reached;
    const index = join(t.root, '.chunks', '.open', '1');
    const [uploadId] = readdirSync(index);
    expect(existsSync(join(t.root, '.chunks', uploadId as string))).toBe(false);
    // Instance A counts it (the bound is 1) and neither its count nor its clean-up drops the marker.
    expect(await codeOf(t.uploads.init(other(2), t.caller))).toBe(44008);
    await t.uploads.reclaim(t.now());
    expect(readdirSync(index)).toEqual([uploadId]);
    // B's process dies there: no folder is ever made. Its marker still counts within the grace period...
    b.die(new Error('process died'));
    await expect(held).rejects.toThrow('process died');
    t.state.clock += MARKER_GRACE_MS - 1_000;
    expect(await codeOf(t.uploads.init(other(2), t.caller))).toBe(44008);
    // ...and after it the orphan marker is dropped and its slot is free.
    t.state.clock += 2_000;
    const opened = await t.uploads.init(other(2), t.caller);
    expect(opened).toMatchObject({ uploaded: false });
    expect(readdirSync(index)).toEqual([opened.uploadId]);
  });

  it('another instance counts a finished upload being started again while its done.json is still there', async () => {
    const t = setup({ maxOpenPerUser: 1 });
    const { uploadId } = await t.uploads.init(other(1), t.caller);
    await t.uploads.writeChunk(uploadId, '0', 1, bodyOf(new Uint8Array(10).fill(1)));
    const row = await t.uploads.complete({ ...other(1), uploadId }, 1);
    await t.table.repo.softDelete(row.id);
    t.state.clock += 1_000;
    // Instance B starts it again (its file is gone) and is held before the old done.json goes.
    const b = heldAfterMarker(t);
    const held = b.instance.init(other(1), t.caller);
    await b.reached;
    expect(existsSync(join(t.root, '.chunks', uploadId, 'done.json'))).toBe(true);
    expect(await codeOf(t.uploads.init(other(2), t.caller))).toBe(44008);
    b.go();
    expect(await held).toMatchObject({ uploaded: false, uploadId });
    // The upload B reopened stays counted on A.
    expect(await codeOf(t.uploads.init(other(2), t.caller))).toBe(44008);
    expect(readdirSync(join(t.root, '.chunks', '.open', '1'))).toEqual([uploadId]);
  });

  it('refuses an owner segment that is not a user id or `key` (a programming error)', async () => {
    const t = setup();
    const quota = createOpenUploadQuota({
      base: join(t.root, '.chunks'),
      maxOpen: 1,
      isUploadId: () => true,
      now: t.now,
      expired: () => false,
    });
    const open = vi.fn(async () => 'opened');
    for (const owner of ['..', '../1', '1/2', '', 'keys', '-1'])
      await expect(quota.admit(owner, 'a'.repeat(32), open)).rejects.toThrow(/not an upload owner/);
    await expect(quota.mark('..', 'a'.repeat(32))).rejects.toThrow(/not an upload owner/);
    expect(open).not.toHaveBeenCalled();
    expect(await quota.admit('key', 'a'.repeat(32), open)).toBe('opened');
  });

  it('a chunk names its upload in the index again if its marker went', async () => {
    const t = setup({ maxOpenPerUser: 1 });
    const { uploadId } = await t.uploads.init(other(1, 20), t.caller);
    const marker = join(t.root, '.chunks', '.open', '1', uploadId);
    rmSync(marker);
    await t.uploads.writeChunk(uploadId, '0', 1, bodyOf(new Uint8Array(20).fill(1)));
    expect(existsSync(marker)).toBe(true);
    expect(await codeOf(t.uploads.init(other(2), t.caller))).toBe(44008);
  });

  it('an upload untouched past the retention is expired: it frees its slot, takes no chunk and starts afresh', async () => {
    const t = setup({ maxOpenPerUser: 2 });
    const twoChunks = { ...other(1, 20), chunkCount: 2 };
    const { uploadId } = await t.uploads.init(twoChunks, t.caller);
    await t.uploads.writeChunk(uploadId, '0', 1, bodyOf(new Uint8Array(10).fill(1)));
    await t.uploads.init(other(2), t.caller);
    expect(await codeOf(t.uploads.init(other(3), t.caller))).toBe(44008);
    // Just within the retention (24 h) both still count.
    t.state.clock += 24 * 3_600_000 - 1_000;
    expect(await codeOf(t.uploads.init(other(3), t.caller))).toBe(44008);
    // Past it, before any clean-up: neither counts, and a chunk sent to one is refused.
    t.state.clock += 2_000;
    expect(await t.uploads.init(other(3), t.caller)).toMatchObject({ uploaded: false });
    await expect(
      t.uploads.writeChunk(uploadId, '1', 1, bodyOf(new Uint8Array(10).fill(1))),
    ).rejects.toMatchObject({ code: 44004, args: { uploadId } });
    expect(readdirSync(join(t.root, '.chunks', uploadId)).sort()).toEqual(['0.part', 'meta.json']);
    // An init of the expired upload starts it again from nothing (its stale chunk is not resumed) and takes a slot.
    expect(await t.uploads.init(twoChunks, t.caller)).toMatchObject({ uploadId, receivedIndexes: [] });
    await t.uploads.writeChunk(uploadId, '1', 1, bodyOf(new Uint8Array(10).fill(1)));
    expect(await t.uploads.init(twoChunks, t.caller)).toMatchObject({ uploadId, receivedIndexes: [1] });
    expect(await codeOf(t.uploads.init(other(4), t.caller))).toBe(44008);
  });

  it('an expired upload is not assembled; a finished one still answers its row', async () => {
    const t = setup({ maxOpenPerUser: 2 });
    const { uploadId } = await t.uploads.init(other(1), t.caller);
    await t.uploads.writeChunk(uploadId, '0', 1, bodyOf(new Uint8Array(10).fill(1)));
    const finished = await t.uploads.init(other(2), t.caller);
    await t.uploads.writeChunk(finished.uploadId, '0', 1, bodyOf(new Uint8Array(10).fill(2)));
    const row = await t.uploads.complete({ ...other(2), uploadId: finished.uploadId }, 1);
    t.state.clock += 24 * 3_600_000 + 1_000;
    await expect(t.uploads.complete({ ...other(1), uploadId }, 1)).rejects.toMatchObject({
      code: 44004,
      args: { uploadId },
    });
    expect(t.table.rows.size).toBe(1);
    expect(await t.uploads.complete({ ...other(2), uploadId: finished.uploadId }, 1)).toMatchObject({
      id: row.id,
    });
  });
});
