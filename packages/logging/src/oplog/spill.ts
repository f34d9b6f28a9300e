/**
 * The spill of a durable log writer (contract §10 "Operation log durability"): rows the database would not take
 * are appended, one JSON line each, to segment files `{dir}/{name}.{seq}.jsonl` and replayed oldest first once
 * the database answers again (and at the next start). The total stays under `maxBytes`: beyond it whole oldest
 * segments are deleted, their rows counted as dropped and logged (the specification's "oldest dropped" rule).
 *
 * Appends are synchronous (`appendFileSync`): the spill is only used while the database is failing and at
 * shutdown, where a write that has surely reached the file before the caller goes on matters more than the
 * event loop. A line cut by a crash mid-append is skipped (and counted) on replay.
 *
 * Replay guarantee (exactly once):
 * - A segment being replayed keeps a checkpoint `{name}.{seq}.done` holding the lines already inserted; it is
 *   rewritten after every batch, and the segment and its checkpoint are deleted when the segment is finished.
 * - A crash between a batch's commit and its checkpoint leaves one batch whose fate is unknown. When the writer
 *   has an `existing` lookup (the operation log has one: rows are keyed by their trace id, one row a request),
 *   every replayed batch is first filtered through it, so rows already stored are never inserted again, also
 *   rows a shutdown spilled while their INSERT was still in flight. Without that lookup (rows with no trace id)
 *   the guarantee is at least once, with at most one batch repeated after a crash mid-replay.
 */
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '@svc/kernel';

export interface SpillOptions<T> {
  /** Directory of the segment files (`{ContentRoot}/data`). */
  dir: string;
  /** File-name prefix, e.g. `oplog-spill`. */
  name: string;
  /** Largest total size of the segments in bytes (`Logging:OpLog:SpillMaxMb`). */
  maxBytes: number;
  /** Turns a parsed JSON line back into a row (dates arrive as ISO strings). */
  revive(value: unknown): T;
  logger: Logger;
}

export interface SpillStats {
  /** Rows waiting in the spill files. */
  pending: number;
  bytes: number;
  /** Rows deleted because the spill was over its cap, since start. */
  dropped: number;
  /** Rows replayed into the database since start. */
  replayed: number;
  /** Lines that could not be read back (cut by a crash mid-append). */
  unreadable: number;
}

interface Segment {
  seq: number;
  bytes: number;
  lines: number;
}

export interface Spill<T> {
  /** Appends rows; evicts the oldest segments when the cap would be passed. */
  append(rows: readonly T[]): void;
  /**
   * Replays every segment written before this call, oldest first, through `insert` in batches. Stops at the
   * first failed batch (its rows stay in the spill). Answers the rows inserted.
   */
  replay(
    insert: (rows: T[]) => Promise<void>,
    batchSize: number,
    existing?: (rows: readonly T[]) => Promise<ReadonlySet<number>>,
  ): Promise<number>;
  stats(): SpillStats;
}

const SEGMENT_RE = /^(.+)\.(\d+)\.jsonl$/;

/** Counts newline bytes without holding the file in memory. */
function countLines(path: string): number {
  const fd = openSync(path, 'r');
  const buffer = Buffer.allocUnsafe(1 << 20);
  let lines = 0;
  try {
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      for (let i = 0; i < n; i++) if (buffer[i] === 10) lines++;
    }
  } finally {
    closeSync(fd);
  }
  return lines;
}

export function openSpill<T>(options: SpillOptions<T>): Spill<T> {
  const { dir, name, logger } = options;
  const maxBytes = Math.max(1, options.maxBytes);
  // Segments of at most an eighth of the cap (and 8 MiB), so eviction drops a bounded slice, never everything.
  const segmentMax = Math.max(1, Math.min(Math.floor(maxBytes / 8), 8 * 1024 * 1024));
  const segments: Segment[] = [];
  let files: string[] = [];
  try {
    files = readdirSync(dir);
  } catch {
    // No directory yet: nothing was ever spilled (it is made at the first append).
  }
  for (const file of files) {
    const match = SEGMENT_RE.exec(file);
    if (!match || match[1] !== name) continue;
    const path = join(dir, file);
    segments.push({ seq: Number(match[2]), bytes: statSync(path).size, lines: countLines(path) });
  }
  segments.sort((a, b) => a.seq - b.seq);
  let nextSeq = (segments.at(-1)?.seq ?? 0) + 1;
  /** The segment appends go to (a new one after start and after each replay begins). */
  let current: Segment | undefined;
  let replaying: number | undefined;
  let dropped = 0;
  let replayed = 0;
  let unreadable = 0;

  const pathOf = (seq: number) => join(dir, `${name}.${seq}.jsonl`);
  const donePathOf = (seq: number) => join(dir, `${name}.${seq}.done`);
  const total = () => segments.reduce((sum, s) => sum + s.bytes, 0);
  const pending = () => segments.reduce((sum, s) => sum + s.lines, 0);

  function remove(segment: Segment): void {
    rmSync(pathOf(segment.seq), { force: true });
    rmSync(donePathOf(segment.seq), { force: true });
    segments.splice(segments.indexOf(segment), 1);
    if (current === segment) current = undefined;
  }

  /** Frees room for `bytes` by deleting the oldest segments (never the one being replayed). */
  function makeRoom(bytes: number): boolean {
    while (total() + bytes > maxBytes) {
      const oldest = segments.find((s) => s.seq !== replaying && s.bytes > 0);
      if (!oldest) return false;
      dropped += oldest.lines;
      logger.error(
        `${name}: spill is over its cap (${maxBytes} bytes); dropped the oldest ${oldest.lines} row(s).`,
        { dropped },
      );
      remove(oldest);
    }
    return true;
  }

  return {
    append(rows) {
      for (const row of rows) {
        const line = `${JSON.stringify(row)}\n`;
        const size = Buffer.byteLength(line);
        // The oldest rows go first; a row larger than the whole cap is itself the one dropped.
        if (size > maxBytes || !makeRoom(size)) {
          dropped++;
          continue;
        }
        if (!current || current.bytes + size > segmentMax) {
          mkdirSync(dir, { recursive: true });
          current = { seq: nextSeq++, bytes: 0, lines: 0 };
          segments.push(current);
        }
        // Owner-only: the rows hold operators, IPs and (masked) parameters.
        appendFileSync(pathOf(current.seq), line, { mode: 0o600 });
        current.bytes += size;
        current.lines++;
      }
    },

    async replay(insert, batchSize, existing) {
      // Appends from now on go to a new segment, so the ones replayed are closed.
      current = undefined;
      let inserted = 0;
      for (const segment of [...segments]) {
        if (segment.lines === 0) {
          remove(segment);
          continue;
        }
        replaying = segment.seq;
        try {
          let done = 0;
          try {
            done = Number(readFileSync(donePathOf(segment.seq), 'utf8')) || 0;
          } catch {
            done = 0;
          }
          const lines = readFileSync(pathOf(segment.seq), 'utf8').split('\n');
          if (lines.at(-1) === '') lines.pop();
          for (let i = done; i < lines.length; i += batchSize) {
            const batch: T[] = [];
            for (const line of lines.slice(i, i + batchSize)) {
              try {
                batch.push(options.revive(JSON.parse(line)));
              } catch {
                unreadable++;
                logger.warn(`${name}: skipped an unreadable spill line (cut by a crash?).`);
              }
            }
            let rows = batch;
            if (existing && batch.length > 0) {
              const stored = await existing(batch);
              rows = batch.filter((_, index) => !stored.has(index));
            }
            if (rows.length > 0) await insert(rows);
            const end = Math.min(i + batchSize, lines.length);
            writeFileSync(donePathOf(segment.seq), String(end));
            segment.lines = lines.length - end;
            inserted += rows.length;
            replayed += rows.length;
          }
          remove(segment);
        } finally {
          replaying = undefined;
        }
      }
      if (inserted > 0) logger.info(`${name}: replayed ${inserted} spilled row(s).`);
      return inserted;
    },

    stats: () => ({ pending: pending(), bytes: total(), dropped, replayed, unreadable }),
  };
}
