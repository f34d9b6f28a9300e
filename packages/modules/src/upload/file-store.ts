/**
 * File storage under `Service:Upload:RootPath` (spec "Upload exposure rule"; contract §5 `/sys/file`). An upload
 * is checked (not empty 44001, at most `MaxSizeMb` 44002, extension in `Upload:AllowedExtensions` 44003) and
 * written under a generated name `yyyy/mm/<random>.<ext>`: the client's name is kept only as metadata, so no
 * part of a request ever becomes a path. Reads resolve the stored key and refuse anything outside the root.
 * The content type is decided by the extension, never by the client.
 */

import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { BusinessError, ErrorCode } from '@svc/kernel';
import { UploadErrorCode } from './codes.js';

/** Content types by extension; what is not listed is served as `application/octet-stream`. */
const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  zip: 'application/zip',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

/**
 * Types a browser may show inline from the view link: raster images and PDF. Never SVG or HTML, which can carry
 * script that would run on this origin.
 */
export const INLINE_CONTENT_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/bmp',
  'application/pdf',
]);

/** Random bytes of a storage name: 128 bits, unguessable and collision-free in practice. */
const STORAGE_NAME_BYTES = 16;

export interface StoredUpload {
  storageKey: string;
  originalName: string;
  ext: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
}

export interface FileStoreOptions {
  /** Absolute upload root. */
  root: string;
  /** `Upload:MaxSizeMb` in bytes. */
  maxBytes: number;
  /** `Upload:AllowedExtensions`, compared lower-case without the dot. */
  allowedExtensions: readonly string[];
  now: () => Date;
}

export interface FileStore {
  readonly maxBytes: number;
  /** Checks and stores an upload. @throws BusinessError 44001, 44002, 44003 */
  save(file: File): Promise<StoredUpload>;
  /**
   * Starts a streamed upload: the extension is checked now (44003), the size while bytes arrive (44002, the
   * partial file is removed), emptiness at `finish` (44001). Bytes go to a temporary name beside the final one.
   */
  begin(originalName: string): Promise<UploadSink>;
  /**
   * The stored bytes of `source` under a new name (instant upload: no copy), or undefined when they are gone or
   * no longer of its size. The name's extension is checked as an upload's (44003).
   */
  share(
    source: Pick<StoredUpload, 'storageKey' | 'sizeBytes' | 'sha256'>,
    originalName: string,
  ): Promise<StoredUpload | undefined>;
  /** A stream of a stored file, or undefined when the bytes are gone. */
  open(storageKey: string): Promise<{ body: ReadableStream; size: number } | undefined>;
  /** Removes bytes no row names (a failed upload's, a refused assembly's). For bytes rows may share, {@link release}. */
  remove(storageKey: string): Promise<void>;
  /**
   * Removes the bytes of `storageKey` unless `inUse()` finds a row naming them, also one that a concurrent
   * {@link share} inserts meanwhile; answers whether they went. The bytes are first renamed aside, `inUse` asked
   * again and the bytes put back if a row appeared: a share checks the bytes after inserting its row, so either
   * this sees the row, or the share sees the bytes gone and withdraws (it never keeps a row without bytes). The same
   * holds between instances on one shared root.
   */
  release(storageKey: string, inUse: () => Promise<boolean>): Promise<boolean>;
  /**
   * Removes what a process that died mid-write left in the tree, untouched since before `cutoff`: the partial file
   * of an assembly or upload (`*.part`) and bytes set aside by a {@link release} (`*.gone`). Answers how many.
   */
  reclaimLeftovers(cutoff: Date): Promise<number>;
}

export interface UploadSink {
  /** Appends bytes (waits while the disk is slower than the network). @throws BusinessError 44002 */
  write(chunk: Uint8Array): Promise<void>;
  finish(): Promise<StoredUpload>;
  /** Removes what was written. */
  abort(): Promise<void>;
}

/** The extension of a client file name, lower-case without the dot ('' when none). */
export function extensionOf(name: string): string {
  return extname(name).slice(1).toLowerCase();
}

/** `application/octet-stream` for anything not in the table. */
export function contentTypeOf(ext: string): string {
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

/**
 * The client's file name as it is stored and shown: NUL and the other control characters (a CR/LF pair written
 * into a name ends up in logs, exports and headers a consumer builds) and the bidirectional overrides (which show
 * `gnp.exe` as `exe.png`) answer 48000; an empty name is `file`; at most 255 characters, never half a surrogate
 * pair.
 */
export function uploadName(name: string): string {
  if (/[\p{Cc}\u202a-\u202e\u2066-\u2069]/u.test(name))
    throw new BusinessError(ErrorCode.ParamInvalid, {
      errors: [
        { path: 'file', message: 'the file name must not contain control or direction-override characters' },
      ],
    });
  let kept = (name || 'file').slice(0, 255);
  const last = kept.charCodeAt(kept.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) kept = kept.slice(0, -1);
  return kept;
}

export function createFileStore(options: FileStoreOptions): FileStore {
  const root = resolve(options.root);
  const allowed = new Set(options.allowedExtensions.map((e) => e.toLowerCase().replace(/^\./, '')));

  /** The absolute path of a key, or undefined when it would leave the root. */
  function pathOf(storageKey: string): string | undefined {
    const full = resolve(root, storageKey);
    return full.startsWith(root + sep) ? full : undefined;
  }

  return {
    maxBytes: options.maxBytes,

    async save(file) {
      const originalName = uploadName(file.name);
      const ext = extensionOf(originalName);
      if (!ext || !/^[a-z0-9]{1,16}$/.test(ext) || !allowed.has(ext)) {
        throw new BusinessError(UploadErrorCode.FileExtNotAllowed, { ext, allowed: [...allowed] });
      }
      if (file.size === 0) throw new BusinessError(UploadErrorCode.FileEmpty);
      if (file.size > options.maxBytes) {
        throw new BusinessError(UploadErrorCode.FileTooLarge, { maxBytes: options.maxBytes });
      }
      const bytes = new Uint8Array(await file.arrayBuffer());
      const at = options.now();
      const month = `${at.getUTCFullYear()}/${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
      const storageKey = `${month}/${randomBytes(STORAGE_NAME_BYTES).toString('hex')}.${ext}`;
      const full = pathOf(storageKey) as string;
      await mkdir(dirname(full), { recursive: true });
      // Under a temporary name until whole: a process that dies mid-write leaves a leftover, not a short file.
      const partial = `${full}.part`;
      await writeFile(partial, bytes, { flag: 'wx' });
      await rename(partial, full);
      return {
        storageKey,
        originalName,
        ext,
        contentType: contentTypeOf(ext),
        sizeBytes: bytes.byteLength,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      };
    },

    async begin(name) {
      const originalName = uploadName(name);
      const ext = extensionOf(originalName);
      if (!ext || !/^[a-z0-9]{1,16}$/.test(ext) || !allowed.has(ext)) {
        throw new BusinessError(UploadErrorCode.FileExtNotAllowed, { ext, allowed: [...allowed] });
      }
      const at = options.now();
      const month = `${at.getUTCFullYear()}/${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
      const storageKey = `${month}/${randomBytes(STORAGE_NAME_BYTES).toString('hex')}.${ext}`;
      const full = pathOf(storageKey) as string;
      const partial = `${full}.part`;
      await mkdir(dirname(full), { recursive: true });
      const out = createWriteStream(partial, { flags: 'wx' });
      const hash = createHash('sha256');
      let size = 0;
      let failed: Error | undefined;
      out.on('error', (error) => {
        failed = error;
      });
      const closed = () =>
        new Promise<void>((resolve) => {
          if (out.closed) resolve();
          else out.once('close', () => resolve());
        });
      const abort = async () => {
        out.destroy();
        await closed();
        await rm(partial, { force: true });
      };
      return {
        async write(chunk) {
          if (failed) throw failed;
          size += chunk.byteLength;
          if (size > options.maxBytes) {
            await abort();
            throw new BusinessError(UploadErrorCode.FileTooLarge, { maxBytes: options.maxBytes });
          }
          hash.update(chunk);
          if (!out.write(chunk)) {
            await new Promise<void>((resolve, reject) => {
              const onDrain = () => {
                out.off('error', onError);
                resolve();
              };
              const onError = (error: Error) => {
                out.off('drain', onDrain);
                reject(error);
              };
              out.once('drain', onDrain);
              out.once('error', onError);
            });
          }
        },
        async finish() {
          await new Promise<void>((resolve, reject) => {
            out.end((error?: Error | null) => (error ? reject(error) : resolve()));
          });
          if (failed) throw failed;
          if (size === 0) {
            await rm(partial, { force: true });
            throw new BusinessError(UploadErrorCode.FileEmpty);
          }
          await rename(partial, full);
          return {
            storageKey,
            originalName,
            ext,
            contentType: contentTypeOf(ext),
            sizeBytes: size,
            sha256: hash.digest('hex'),
          };
        },
        abort,
      };
    },

    async share(source, name) {
      const originalName = uploadName(name);
      const ext = extensionOf(originalName);
      if (!ext || !/^[a-z0-9]{1,16}$/.test(ext) || !allowed.has(ext)) {
        throw new BusinessError(UploadErrorCode.FileExtNotAllowed, { ext, allowed: [...allowed] });
      }
      const full = pathOf(source.storageKey);
      const info = full ? await stat(full).catch(() => undefined) : undefined;
      if (!info?.isFile() || info.size !== source.sizeBytes) return undefined;
      return {
        storageKey: source.storageKey,
        originalName,
        ext,
        contentType: contentTypeOf(ext),
        sizeBytes: source.sizeBytes,
        sha256: source.sha256,
      };
    },

    async open(storageKey) {
      const full = pathOf(storageKey);
      if (!full) return undefined;
      try {
        const info = await stat(full);
        if (!info.isFile()) return undefined;
        return { body: Readable.toWeb(createReadStream(full)) as ReadableStream, size: info.size };
      } catch {
        return undefined;
      }
    },

    async remove(storageKey) {
      const full = pathOf(storageKey);
      if (full) await rm(full, { force: true });
    },

    async release(storageKey, inUse) {
      const full = pathOf(storageKey);
      if (!full) return false;
      // Bounded: each round that puts the bytes back found a row, which usually stays; a share that withdrew its
      // row lets the next round remove them.
      for (let round = 0; round < RELEASE_ROUNDS; round += 1) {
        if (await inUse()) return false;
        const aside = `${full}.${randomBytes(8).toString('hex')}${SET_ASIDE}`;
        try {
          await rename(full, aside);
        } catch (error) {
          // Already gone (another release of the same bytes): nothing of ours to remove.
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
          throw error;
        }
        if (!(await inUse())) {
          await rm(aside, { force: true });
          return true;
        }
        await rename(aside, full);
      }
      return false;
    },

    async reclaimLeftovers(cutoff) {
      let count = 0;
      // Keys are `yyyy/mm/<name>`: only those folders are walked (`.chunks` and anything else are not ours here).
      for (const year of await namesIn(root, /^\d{4}$/))
        for (const month of await namesIn(join(root, year), /^\d{2}$/))
          for (const name of await namesIn(join(root, year, month), LEFTOVER)) {
            const full = join(root, year, month, name);
            const info = await stat(full).catch(() => undefined);
            if (!info?.isFile() || info.mtime >= cutoff) continue;
            await rm(full, { force: true });
            count += 1;
          }
      return count;
    },
  };
}

/** Suffix of bytes a release has set aside before it removes them. */
const SET_ASIDE = '.gone';
/**
 * What a write or release in progress names its file, `<name>.<ext>.part` and `<name>.<ext>.<hex>.gone`, and no
 * stored file's key (`<name>.<ext>`, one dot) ever matches, whatever extensions are allowed.
 */
const LEFTOVER = /^[0-9a-f]{32}\.[a-z0-9]{1,16}\.(part|[0-9a-f]{16}\.gone)$/;
const RELEASE_ROUNDS = 3;

async function namesIn(dir: string, pattern: RegExp): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.filter((name) => pattern.test(name));
}

/**
 * `Content-Disposition` with the original name: an ASCII fallback in `filename` and the exact name in
 * `filename*` (RFC 6266 with RFC 5987 encoding), so no client-supplied character can break the header.
 */
export function contentDisposition(kind: 'attachment' | 'inline', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
