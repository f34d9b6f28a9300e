/**
 * The bound on a caller's open chunked uploads (`Upload:ChunkMaxOpenPerUser`, chunks.ts). An upload is open while
 * its folder `{upload root}/.chunks/<uploadId>/` holds `meta.json` and no `done.json` (a complete made its file, or
 * found the hash wrong and dropped the meta) and was touched within `Upload:ChunkRetentionHours` on the service
 * clock (an upload untouched longer is expired: it takes no more chunks and no longer counts, whether or not the
 * clean-up has removed it yet). Without a bound, one holder of the init permission could open any number of uploads
 * and stage up to `MaxSizeMb` in each until the retention clean-up.
 *
 * Counting reads only the caller's own uploads: each caller has an index folder `.chunks/.open/<caller>/` with an
 * empty file (a marker) per upload id it opened, its mtime the service clock when it was written. The marker is
 * written before its upload's folder is made or reopened, and every chunk written re-creates a missing one, so a
 * folder that is open or receives bytes is always named. A count looks at each named folder and
 * - counts it while it is open;
 * - counts a marker whose folder or `meta.json` is missing (the upload is being made, perhaps on another instance)
 *   for {@link MARKER_GRACE_MS} after the marker was written, and drops it only after that (its process died
 *   between the marker and the folder, or stalled that long there: its first chunk writes the marker again);
 * - drops a marker whose upload finished after it was written (`done.json` newer than the marker); a marker newer
 *   than `done.json` is a finished upload being started again (its `done.json` goes after the marker is written),
 *   counted within the grace period;
 * - keeps, without counting, the marker of an expired upload (the clean-up removes the folder, then the marker).
 * So no count drops the marker of an upload that is open or being opened, on any instance.
 *
 * Atomicity: a count and the opening that follows it run one at a time per caller on this instance (an in-process
 * queue), so parallel inits of one caller here cannot both take the last slot. Instances sharing one upload root
 * do not share that queue: inits of one caller arriving on several instances at the same moment can each count
 * before the others' markers are written, so the bound may be passed by at most one upload per instance taking
 * part in that moment. Every open upload stays counted afterwards: a marker written by any instance is seen by
 * every later count. Per-caller index folders are never removed (an empty one per caller who ever uploaded), so a
 * clean-up never pulls the folder from under another instance's marker write.
 */

import { mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BusinessError } from '@svc/kernel';
import { UploadErrorCode } from './codes.js';

/** How long a marker whose upload folder (or its meta.json) is missing counts as an upload being made. */
export const MARKER_GRACE_MS = 60_000;

/** The form of a caller's index folder: a user id, or `key` (the programmatic API's callers without a user). */
const CALLER = /^(\d+|key)$/;

export interface OpenUploadQuota {
  /**
   * Runs `open` (which makes the upload's folder open) when the upload is already open (a resume) or the caller
   * has fewer than `maxOpen` open uploads; otherwise answers 44008 `{maxOpen}`. The upload's marker is written
   * before `open` runs. One at a time per caller on this instance.
   */
  admit<T>(caller: string, uploadId: string, open: () => Promise<T>): Promise<T>;
  /** Writes the upload's marker if it is missing (a chunk arrives for it). */
  mark(caller: string, uploadId: string): Promise<void>;
  /** Drops the index entries of uploads that are gone or finished (the retention clean-up runs it). */
  prune(): Promise<void>;
}

/**
 * @param options.base the `.chunks` folder
 * @param options.maxOpen `Upload:ChunkMaxOpenPerUser`
 * @param options.isUploadId the form of an upload id (anything else in an index is ignored)
 * @param options.now the service clock (markers' times, the grace period)
 * @param options.expired whether an upload folder last touched at `mtimeMs` is past its retention
 */
export function createOpenUploadQuota(options: {
  base: string;
  maxOpen: number;
  isUploadId: (name: string) => boolean;
  now: () => Date;
  expired: (mtimeMs: number) => boolean;
}): OpenUploadQuota {
  const index = join(options.base, '.open');
  const queues = new Map<string, Promise<void>>();

  function folderOf(caller: string): string {
    // Defence in depth: the caller names a folder; built-in routes always pass a user id.
    if (!CALLER.test(caller)) throw new Error(`not an upload owner: ${JSON.stringify(caller)}`);
    return join(index, caller);
  }

  /** Runs `work` after the caller's earlier work on this instance has settled. */
  async function serial<T>(caller: string, work: () => Promise<T>): Promise<T> {
    const before = queues.get(caller) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => {
      release = r;
    });
    const tail = before.then(() => mine);
    queues.set(caller, tail);
    await before;
    try {
      return await work();
    } finally {
      release();
      if (queues.get(caller) === tail) queues.delete(caller);
    }
  }

  async function isOpen(uploadId: string): Promise<boolean> {
    const dir = join(options.base, uploadId);
    const [folder, meta, done] = await Promise.all([
      stat(dir).catch(() => undefined),
      stat(join(dir, 'meta.json')).catch(() => undefined),
      stat(join(dir, 'done.json')).catch(() => undefined),
    ]);
    return (
      folder !== undefined && meta !== undefined && done === undefined && !options.expired(folder.mtimeMs)
    );
  }

  /** Whether the marker counts, and whether it is dropped (see the header). */
  async function judge(marker: string, uploadId: string): Promise<{ counts: boolean; drop: boolean }> {
    const mark = await stat(marker).catch(() => undefined);
    // Gone meanwhile (another instance's prune): nothing to count here.
    if (!mark) return { counts: false, drop: false };
    const dir = join(options.base, uploadId);
    const [folder, meta, done] = await Promise.all([
      stat(dir).catch(() => undefined),
      stat(join(dir, 'meta.json')).catch(() => undefined),
      stat(join(dir, 'done.json')).catch(() => undefined),
    ]);
    const young = options.now().getTime() - mark.mtimeMs < MARKER_GRACE_MS;
    if (done) {
      if (done.mtimeMs > mark.mtimeMs) return { counts: false, drop: true };
      // Started again after it finished (done.json goes next), or written in the same millisecond.
      return { counts: mark.mtimeMs > done.mtimeMs && young, drop: false };
    }
    if (!folder || !meta) return { counts: young, drop: !young };
    return { counts: !options.expired(folder.mtimeMs), drop: false };
  }

  /** How many of the caller's uploads count; index entries of uploads that are gone or finished are dropped. */
  async function countOf(caller: string): Promise<number> {
    const own = folderOf(caller);
    let count = 0;
    for (const name of await readdir(own).catch(() => [] as string[])) {
      if (!options.isUploadId(name)) continue;
      const { counts, drop } = await judge(join(own, name), name);
      if (counts) count += 1;
      if (drop) await rm(join(own, name), { force: true });
    }
    return count;
  }

  /** Writes a marker on the service clock; `fresh` only when none is there (`wx`). */
  async function writeMarker(caller: string, uploadId: string, fresh: boolean): Promise<void> {
    const own = folderOf(caller);
    await mkdir(own, { recursive: true });
    const marker = join(own, uploadId);
    try {
      await writeFile(marker, '', fresh ? { flag: 'wx' } : {});
    } catch (error) {
      if (fresh && (error as NodeJS.ErrnoException).code === 'EEXIST') return;
      throw error;
    }
    const at = options.now();
    await utimes(marker, at, at);
  }

  return {
    async admit(caller, uploadId, open) {
      folderOf(caller);
      return serial(caller, async () => {
        if (!(await isOpen(uploadId))) {
          if ((await countOf(caller)) >= options.maxOpen)
            throw new BusinessError(UploadErrorCode.ChunkOpenLimitExceeded, { maxOpen: options.maxOpen });
        }
        // Also on a resume: an upload opened before the index existed is named from now on. Written (its time
        // now) before `open` makes the folder or removes an earlier done.json, so no count drops it meanwhile.
        await writeMarker(caller, uploadId, false);
        return open();
      });
    },

    mark(caller, uploadId) {
      return writeMarker(caller, uploadId, true);
    },

    async prune() {
      for (const caller of await readdir(index).catch(() => [] as string[])) {
        if (!CALLER.test(caller)) continue;
        // The per-caller folder stays: removing it could race another instance's marker write into it.
        await serial(caller, () => countOf(caller));
      }
    },
  };
}
