/**
 * The streaming multipart reader: parts and bytes come out the same whatever the network chunking (a
 * delimiter split across chunks, one byte at a time), quoted names are decoded, and broken bodies throw.
 */
import { describe, expect, it } from 'vitest';
import { boundaryOf, MultipartError, multipartEvents } from './multipart.js';

const B = 'xYz-boundary';
const body = Buffer.from(
  `preamble\r\n--${B}\r\nContent-Disposition: form-data; name="title"\r\n\r\nhello\r\n` +
    `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a %22b%22.png"\r\n` +
    `Content-Type: image/png\r\n\r\nline1\r\n--${B.slice(0, -1)}\r\nline2\r\n--${B}--\r\nepilogue`,
);

async function* chunks(data: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

async function collect(data: Buffer, size: number) {
  const parts: { name: string; filename: string | undefined; data: string }[] = [];
  let ended = false;
  for await (const e of multipartEvents(chunks(data, size), B)) {
    if (e.kind === 'part') parts.push({ name: e.name, filename: e.filename, data: '' });
    else if (e.kind === 'data') {
      const last = parts.at(-1);
      if (last) last.data += Buffer.from(e.chunk).toString('latin1');
    } else ended = true;
  }
  return { parts, ended };
}

describe('multipart reader', () => {
  it('yields the same parts for any chunking, keeping a partial delimiter inside data', async () => {
    const expected = {
      parts: [
        { name: 'title', filename: undefined, data: 'hello' },
        { name: 'file', filename: 'a "b".png', data: `line1\r\n--${B.slice(0, -1)}\r\nline2` },
      ],
      ended: true,
    };
    for (const size of [1, 2, 3, 7, 16, 64, body.length]) expect(await collect(body, size)).toEqual(expected);
  });

  it('throws on a body cut inside a part or without a boundary', async () => {
    await expect(collect(body.subarray(0, body.length - 30), 5)).rejects.toBeInstanceOf(MultipartError);
    await expect(collect(Buffer.from('no multipart here'), 4)).rejects.toBeInstanceOf(MultipartError);
  });

  it('reads the boundary from the content type', () => {
    expect(boundaryOf(`multipart/form-data; boundary=${B}`)).toBe(B);
    expect(boundaryOf('multipart/form-data; boundary="a b"')).toBe('a b');
    expect(boundaryOf('application/json')).toBeUndefined();
  });
});
