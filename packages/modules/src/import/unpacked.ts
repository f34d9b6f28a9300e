/**
 * How far an uploaded workbook unpacks, measured before exceljs reads it (bad input gets an envelope, never a
 * crash). An .xlsx is a zip: the 32 MiB an import route accepts can inflate to tens of gigabytes of XML, and
 * exceljs' streaming reader keeps every shared string in memory (and copies a sheet that comes before them to a
 * temporary file) and walks blank rows without counting them, so such a file would take the heap, the disk or
 * minutes of the event loop long before the row limit is reached.
 *
 * The entries are inflated here by the parser exceljs itself reads the workbook with (unzipper's streaming
 * `Parse`, local headers one after the other: a check of the central directory could be shown other entries
 * than the ones a streaming reader meets, and the sizes a header declares are only claims). The inflated bytes
 * are counted and dropped; past the limit the inflating stops at once.
 */
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';

/** An entry of unzipper's `Parse`: a stream of the inflated bytes of one file of the zip, and its path. */
type ZipEntry = NodeJS.ReadableStream & { path?: string };

interface Unzipper {
  Parse(): NodeJS.WritableStream & {
    destroy(): void;
    on(event: 'entry', listener: (entry: ZipEntry) => void): unknown;
  };
}

let unzipper: Unzipper | undefined;

/** A dependency of exceljs as exceljs resolves it (the same module and version, and not one of ours). */
export function exceljsDependency<T>(name: string): T {
  const require = createRequire(import.meta.url);
  return createRequire(require.resolve('exceljs'))(name) as T;
}

/** unzipper as exceljs resolves it: the parser exceljs reads the workbook with. */
function loadUnzipper(): Unzipper {
  unzipper ??= exceljsDependency<Unzipper>('unzipper');
  return unzipper;
}

/** What an uploaded workbook may unpack to. */
export interface UnpackLimits {
  /** Inflated bytes, all entries together. */
  maxBytes: number;
  /**
   * XML elements (`<` in the inflated bytes), all entries together: the reader makes objects per element, so a
   * workbook of empty elements (`<r/>` in a shared string) costs many times its bytes in memory.
   */
  maxElements: number;
  /** Entries (files) in the zip: each costs an inflater of its own, here and in exceljs. */
  maxEntries: number;
}

/** The zip unpacks to more than a limit allows; the message says which (`the workbook unpacks to …`). */
export class UnpackedTooLarge extends Error {
  override readonly name = 'UnpackedTooLarge';
}

const MIB = 1024 * 1024;

/** The number of `<` in a chunk of inflated XML. */
function elementsIn(chunk: Buffer): number {
  let n = 0;
  for (let at = chunk.indexOf(0x3c); at !== -1; at = chunk.indexOf(0x3c, at + 1)) n++;
  return n;
}

/**
 * The bytes every entry of the zip inflates to, all together. Rejects with {@link UnpackedTooLarge} as soon as
 * a limit is passed (and stops every inflater), and with the parser's own error for bytes that are not a whole
 * zip (one that ends inside an entry rejects too: a reader waiting for the rest of an entry would wait for ever).
 */
export async function unpackedBytes(bytes: Uint8Array, limits: UnpackLimits): Promise<number> {
  return (await unpackWorkbook(bytes, limits)).bytes;
}

/**
 * {@link unpackedBytes}, keeping the inflated bytes of the entries `keep` names (asked once per entry, in the
 * order the streaming parser meets them): what a reader needs of the zip, as the parser saw it, within the limits.
 */
export function unpackWorkbook(
  bytes: Uint8Array,
  limits: UnpackLimits,
  keep: (path: string) => boolean = () => false,
): Promise<{ bytes: number; kept: Map<string, Buffer> }> {
  // The parser waits for ever on an empty input (a write of no bytes is never acknowledged); so does exceljs.
  if (bytes.length === 0) return Promise.reject(new Error('an empty file is not a zip'));
  const parser = loadUnzipper().Parse();
  const source = Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]);
  const kept = new Map<string, Buffer>();
  return new Promise<{ bytes: number; kept: Map<string, Buffer> }>((resolve, reject) => {
    let total = 0;
    let elements = 0;
    let entries = 0;
    /** Entries whose inflated bytes have not all been read yet. */
    const open = new Set<ZipEntry>();
    let inputRead = false;
    let settled = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      source.unpipe(parser);
      source.destroy();
      // An entry's compressed bytes are all in its inflater already: destroying the entry stops the inflating
      // (nothing reads it any more), which would otherwise go on for seconds after a bomb is refused.
      for (const entry of open) (entry as unknown as { destroy(): void }).destroy();
      // The listeners stay: whatever the parser or an inflater still reports after this is dropped here.
      parser.destroy();
      if (error === undefined) resolve({ bytes: total, kept });
      else reject(error);
    };
    parser.on('entry', (entry) => {
      if (++entries > limits.maxEntries) {
        open.add(entry);
        settle(new UnpackedTooLarge(`the workbook holds more than ${limits.maxEntries} files`));
        return;
      }
      open.add(entry);
      const path = entry.path ?? '';
      const chunks: Buffer[] | undefined = keep(path) ? [] : undefined;
      entry.on('data', (chunk: Buffer) => {
        chunks?.push(chunk);
        total += chunk.length;
        elements += elementsIn(chunk);
        if (total > limits.maxBytes)
          settle(
            new UnpackedTooLarge(
              `the workbook unpacks to more than ${Math.floor(limits.maxBytes / MIB)} MiB`,
            ),
          );
        else if (elements > limits.maxElements)
          settle(new UnpackedTooLarge(`the workbook holds more than ${limits.maxElements} XML elements`));
      });
      entry.on('end', () => {
        if (chunks) kept.set(path, Buffer.concat(chunks));
        open.delete(entry);
        if (inputRead && open.size === 0) settle();
      });
      entry.on('error', settle);
    });
    parser.on('error', settle);
    // The zip is read: its end record was (the parser ends its readable side, seen once it flows; bytes after
    // the record are never asked for, so its input may not finish), or every byte of the input was (`close`).
    // An entry's last inflated bytes may still be on the way.
    const read = () => {
      inputRead = true;
      if (open.size === 0) settle();
    };
    parser.on('end', read);
    parser.on('close', read);
    (parser as unknown as NodeJS.ReadableStream).resume();
    source.pipe(parser);
  });
}
