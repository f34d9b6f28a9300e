/**
 * The byte count behind the chunked upload's size rule (chunks.ts): per upload, the sizes of its stored chunks
 * and the bytes requests are writing to it right now. One ledger lives while chunks of its upload are being
 * written on this instance: read from the folder when the first writer comes, kept up to date by the writers,
 * dropped when the last one leaves (so the next one reads the folder again and sees what another instance or the
 * clean-up changed). A check and the update that follows it run without an `await` in between, which makes them
 * atomic for the requests of this instance.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface ChunkLedger {
  /** Size of each stored `<index>.part`. */
  stored: Map<number, number>;
  /** Sum of `stored`. */
  storedBytes: number;
  /** Bytes accepted so far by the writers still running (in their temporary files). */
  writingBytes: number;
}

interface Entry extends ChunkLedger {
  writers: number;
  ready: Promise<void>;
}

export interface ChunkLedgers {
  /** Joins (or opens) the ledger of an upload; every `enter` is paired with one `leave`. */
  enter(uploadId: string, dir: string): Promise<ChunkLedger>;
  leave(uploadId: string): void;
  /** The stored chunks of an upload were removed (assembled, or dropped after a hash mismatch). */
  forgetStored(uploadId: string): void;
}

/** @param received the indexes of the stored chunks in an upload folder */
export function createChunkLedgers(received: (dir: string) => Promise<number[]>): ChunkLedgers {
  const entries = new Map<string, Entry>();

  // An entry stays in the map while it has writers, so the one found here is the caller's.
  function leave(uploadId: string): void {
    const entry = entries.get(uploadId);
    if (!entry) return;
    entry.writers -= 1;
    if (entry.writers === 0) entries.delete(uploadId);
  }

  return {
    async enter(uploadId, dir) {
      let entry = entries.get(uploadId);
      if (!entry) {
        const fresh: Entry = {
          stored: new Map(),
          storedBytes: 0,
          writingBytes: 0,
          writers: 0,
          ready: Promise.resolve(),
        };
        fresh.ready = (async () => {
          for (const index of await received(dir)) {
            const info = await stat(join(dir, `${index}.part`)).catch(() => undefined);
            if (!info) continue;
            fresh.stored.set(index, info.size);
            fresh.storedBytes += info.size;
          }
        })();
        entries.set(uploadId, fresh);
        entry = fresh;
      }
      entry.writers += 1;
      try {
        await entry.ready;
      } catch (error) {
        leave(uploadId);
        throw error;
      }
      return entry;
    },
    leave,
    forgetStored(uploadId) {
      const entry = entries.get(uploadId);
      if (!entry) return;
      entry.stored.clear();
      entry.storedBytes = 0;
    },
  };
}
