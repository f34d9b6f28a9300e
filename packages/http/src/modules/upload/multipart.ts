/**
 * A streaming `multipart/form-data` reader (RFC 7578) for uploads (issue 11): it yields part headers and the
 * part's bytes as they arrive, holding no more than one network chunk plus the delimiter length, so a 45 MB
 * upload never sits in memory. Small non-file fields are the caller's to bound. Malformed framing throws
 * `MultipartError` (answered 48000).
 */

export class MultipartError extends Error {
  override name = 'MultipartError';
}

export type MultipartEvent =
  | { kind: 'part'; name: string; filename: string | undefined; contentType: string | undefined }
  | { kind: 'data'; chunk: Uint8Array }
  | { kind: 'end' };

/** Longest part-header block accepted. */
const MAX_PART_HEADER_BYTES = 16 * 1024;

/** The boundary of a `multipart/form-data` content type, or undefined. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data\b/i.test(contentType.trim())) return undefined;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

function parseHeaders(block: string): {
  name: string;
  filename: string | undefined;
  type: string | undefined;
} {
  let disposition = '';
  let type: string | undefined;
  for (const line of block.split('\r\n')) {
    const at = line.indexOf(':');
    if (at < 0) continue;
    const key = line.slice(0, at).trim().toLowerCase();
    const value = line.slice(at + 1).trim();
    if (key === 'content-disposition') disposition = value;
    else if (key === 'content-type') type = value;
  }
  if (!/^form-data\b/i.test(disposition)) throw new MultipartError('part without form-data disposition');
  const param = (key: string) => {
    const re = new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"|;\\s*${key}=([^;\\s]+)`, 'i');
    const m = re.exec(disposition);
    const raw = m?.[1] ?? m?.[2];
    return raw?.replace(/\\(.)/g, '$1');
  };
  const name = param('name');
  if (name === undefined) throw new MultipartError('part without a name');
  // Browsers and fetch's FormData write `"`, CR and LF of a file name as %22, %0D, %0A (WHATWG HTML).
  const filename = param('filename')?.replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
  return { name, filename, type };
}

/**
 * Events of a multipart body: `part` (headers), then its `data` chunks, then `end` when the closing delimiter
 * was read. Throws `MultipartError` when the body ends early or is not multipart.
 */
export async function* multipartEvents(
  body: AsyncIterable<Uint8Array>,
  boundary: string,
): AsyncGenerator<MultipartEvent> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let buffer: Buffer = Buffer.from('\r\n');
  let state: 'preamble' | 'headers' | 'body' | 'done' = 'preamble';
  const iterator = body[Symbol.asyncIterator]();
  let finished = false;
  const pull = async (): Promise<boolean> => {
    if (finished) return false;
    const next = await iterator.next();
    if (next.done) {
      finished = true;
      return false;
    }
    buffer = buffer.length === 0 ? Buffer.from(next.value) : Buffer.concat([buffer, next.value]);
    return true;
  };

  for (;;) {
    if (state === 'done') {
      // The epilogue is ignored, but read so that the connection stays usable.
      while (await pull()) buffer = Buffer.alloc(0);
      return;
    }
    if (state === 'preamble') {
      const at = buffer.indexOf(delimiter);
      if (at < 0) {
        if (buffer.length > delimiter.length) buffer = buffer.subarray(buffer.length - delimiter.length);
        if (!(await pull())) throw new MultipartError('no multipart boundary in the body');
        continue;
      }
      buffer = buffer.subarray(at + delimiter.length);
      state = 'headers';
      continue;
    }
    if (state === 'headers') {
      // After a delimiter: `--` closes the body, `\r\n` starts a part's headers.
      while (buffer.length < 2) if (!(await pull())) throw new MultipartError('body ends after a boundary');
      if (buffer[0] === 0x2d && buffer[1] === 0x2d) {
        state = 'done';
        yield { kind: 'end' };
        continue;
      }
      let end = buffer.indexOf('\r\n\r\n');
      while (end < 0) {
        if (buffer.length > MAX_PART_HEADER_BYTES) throw new MultipartError('part headers too large');
        if (!(await pull())) throw new MultipartError('body ends inside part headers');
        end = buffer.indexOf('\r\n\r\n');
      }
      // The block starts with the CRLF that ended the delimiter line.
      const headers = parseHeaders(buffer.subarray(0, end).toString('utf8'));
      buffer = buffer.subarray(end + 4);
      state = 'body';
      yield { kind: 'part', name: headers.name, filename: headers.filename, contentType: headers.type };
      continue;
    }
    // Body: everything up to the next delimiter is data; keep a tail that could be a delimiter's start.
    const at = buffer.indexOf(delimiter);
    if (at >= 0) {
      if (at > 0) yield { kind: 'data', chunk: buffer.subarray(0, at) };
      buffer = buffer.subarray(at + delimiter.length);
      state = 'headers';
      continue;
    }
    const safe = buffer.length - (delimiter.length - 1);
    if (safe > 0) {
      yield { kind: 'data', chunk: buffer.subarray(0, safe) };
      buffer = buffer.subarray(safe);
    }
    if (!(await pull())) throw new MultipartError('body ends inside a part');
  }
}
