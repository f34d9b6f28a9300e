/**
 * The bound on a caller's open chunked uploads (`Upload:ChunkMaxOpenPerUser`, chunks.ts). An upload is open while
 * its folder `{upload root}/.chunks/<uploadId>/` holds `meta.json` and no `done.json` (a complete made its file, or
 * found the hash wrong and dropped the meta). Without a bound, one holder of the init permission could open any
 * number of uploads and stage up to `MaxSizeMb` in each until the retention clean-up.
 *
 * Counting reads only the caller's own uploads: each caller has an index folder `.chunks/.open/<caller>/` with an
 * empty file per upload id it opened. The index may name more than the open ones (finished, reclaimed or never
 * made); a count looks at each named folder (two `stat`s) and drops what is no longer open, so one count costs
 * about the bound plus the uploads finished since the caller's last `init`. The marker is written before its folder
 * is opened: a process dying in between leaves a marker the next count drops, never an open folder unnamed.
 *
 * Atomicity: the count and the opening that follows it run one at a time per caller on this instance (an
 * in-process queue), so parallel inits of one caller here cannot both take the last slot. Instances sharing one
 * upload root do not share that queue: inits of one caller arriving on several instances at the same moment can
 * each see a free slot, so the bound may be passed by at most one upload per instance taking part (and a count on
 * one instance may drop the marker of a finished upload another instance is reopening at that moment, undercounting
 * it until its next `init`). Once those inits are through, every instance counts the same folders again.
 */
import { mkdir, readdir, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BusinessError, ErrorCode } from '@svc/kernel';

export interface OpenUploadQuota {
  /**
   * Runs `open` (which makes the upload's folder open) when the upload is already open (a resume) or the caller
   * has fewer than `maxOpen` open uploads; otherwise answers 44008 `{maxOpen}`. One at a time per caller.
   */
  admit<T>(caller: string, uploadId: string, open: () => Promise<T>): Promise<T>;
  /** Drops the index entries of uploads that are no longer open (the retention clean-up runs it). */
  prune(): Promise<void>;
}

/**
 * @param options.base the `.chunks` folder
 * @param options.maxOpen `Upload:ChunkMaxOpenPerUser` @default 16
 * @param options.isUploadId the form of an upload id (anything else in an index is ignored)
 */
export function createOpenUploadQuota(options: {
  base: string;
  maxOpen: number;
  isUploadId: (name: string) => boolean;
}): OpenUploadQuota {
  const index = join(options.base, '.open');
  const queues = new Map<string, Promise<void>>();

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
    const [meta, done] = await Promise.all([
      stat(join(dir, 'meta.json')).catch(() => undefined),
      stat(join(dir, 'done.json')).catch(() => undefined),
    ]);
    return meta !== undefined && done === undefined;
  }

  /** The caller's open uploads; index entries of the others are dropped on the way. */
  async function openOf(caller: string): Promise<string[]> {
    const own = join(index, caller);
    const open: string[] = [];
    for (const name of await readdir(own).catch(() => [] as string[])) {
      if (!options.isUploadId(name)) continue;
      if (await isOpen(name)) open.push(name);
      else await rm(join(own, name), { force: true });
    }
    return open;
  }

  return {
    admit(caller, uploadId, open) {
      return serial(caller, async () => {
        if (!(await isOpen(uploadId))) {
          if ((await openOf(caller)).length >= options.maxOpen)
            throw new BusinessError(ErrorCode.ChunkOpenLimitExceeded, { maxOpen: options.maxOpen });
        }
        // Also on a resume: an upload opened before the index existed is named from now on.
        await mkdir(join(index, caller), { recursive: true });
        await writeFile(join(index, caller, uploadId), '');
        return open();
      });
    },

    async prune() {
      for (const caller of await readdir(index).catch(() => [] as string[])) {
        await serial(caller, async () => {
          // Not recursive: a marker another instance writes meanwhile keeps the folder.
          if ((await openOf(caller)).length === 0) await rmdir(join(index, caller)).catch(() => {});
        });
      }
    },
  };
}
