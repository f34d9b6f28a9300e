/**
 * An uploaded workbook is measured by what it inflates to before exceljs reads it: a small deflated file that
 * unpacks far beyond the limit is refused with the envelope (48000), not read into memory, and the limit counts
 * the bytes actually inflated, whatever the file claims.
 */
import { deflateRawSync } from 'node:zlib';
import { UnpackedTooLarge, USER_IMPORT_COLUMNS, unpackedBytes } from '@svc/modules';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, login } from '../../testing/auth.js';
import { startTestServer, TEST_ADMIN_PASSWORD, type TestServer } from '../../testing/index.js';

const MIB = 1024 * 1024;

/** A workbook of the import's headers and one row whose name cell holds `nameChars` characters. */
async function workbook(nameChars: number): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Users');
  sheet.addRow(USER_IMPORT_COLUMNS.map((c) => c.header));
  sheet.addRow(USER_IMPORT_COLUMNS.map((c) => (c.key === 'realName' ? 'n'.repeat(nameChars) : c.key)));
  return new Uint8Array(await book.xlsx.writeBuffer());
}

/** A zip entry: its name, its content and the inflated size its headers declare (the true one unless given). */
interface Entry {
  name: string;
  content: Buffer;
  declared?: number;
}

/**
 * A zip of deflated entries, written by hand so that its headers may lie about sizes (`declared`) and its
 * central directory may be left out (a streaming reader never needs it).
 */
function zipOf(entries: readonly Entry[], centralDirectory = true): Buffer {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const { name, content, declared } of entries) {
    const data = deflateRawSync(content);
    const file = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(declared ?? content.length, 22);
    local.writeUInt16LE(file.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(declared ?? content.length, 24);
    central.writeUInt16LE(file.length, 28);
    central.writeUInt32LE(offset, 42);
    parts.push(local, file, data);
    directory.push(central, file);
    offset += local.length + file.length + data.length;
  }
  if (!centralDirectory) return Buffer.concat(parts);
  const size = directory.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...directory, end]);
}

/** A one-entry zip whose headers declare `declared` bytes while it inflates to `content.length`. */
const lyingZip = (name: string, content: Buffer, declared: number) => zipOf([{ name, content, declared }]);

/** Only a byte limit (the others out of the way). */
const bytesOnly = (maxBytes: number) => ({ maxBytes, maxElements: 1e12, maxEntries: 1e6 });

describe('unpackedBytes', () => {
  it('counts what a workbook inflates to and stops past the limit', async () => {
    const small = await workbook(10);
    const size = await unpackedBytes(small, bytesOnly(64 * MIB));
    // The XML of a workbook is several times its deflated size.
    expect(size).toBeGreaterThan(small.length);
    await expect(unpackedBytes(small, bytesOnly(size))).resolves.toBe(size);
    await expect(unpackedBytes(small, bytesOnly(size - 1))).rejects.toBeInstanceOf(UnpackedTooLarge);
  });

  it('counts the bytes inflated, not the sizes the headers declare', async () => {
    const bomb = lyingZip('xl/sharedStrings.xml', Buffer.alloc(4 * MIB, 'a'), 100);
    expect(bomb.length).toBeLessThan(16 * 1024);
    await expect(unpackedBytes(bomb, bytesOnly(MIB))).rejects.toBeInstanceOf(UnpackedTooLarge);
    await expect(unpackedBytes(bomb, bytesOnly(8 * MIB))).resolves.toBe(4 * MIB);
  });

  it('counts a bomb that is the last entry of a zip without a central directory', async () => {
    const zip = zipOf(
      [
        { name: 'a.xml', content: Buffer.from('<a/>') },
        { name: 'xl/sharedStrings.xml', content: Buffer.alloc(4 * MIB, 'a') },
      ],
      false,
    );
    await expect(unpackedBytes(zip, bytesOnly(MIB))).rejects.toBeInstanceOf(UnpackedTooLarge);
    await expect(unpackedBytes(zip, bytesOnly(8 * MIB))).resolves.toBe(4 + 4 * MIB);
  });

  it('refuses more XML elements or more files than allowed, whatever the bytes', async () => {
    // A shared string of empty runs: few bytes, an object per element in the reader.
    const runs = zipOf([{ name: 'xl/sharedStrings.xml', content: Buffer.from('<r/>'.repeat(50_000)) }]);
    const elements = unpackedBytes(runs, { maxBytes: 64 * MIB, maxElements: 40_000, maxEntries: 10 });
    await expect(elements).rejects.toThrow('the workbook holds more than 40000 XML elements');
    await expect(
      unpackedBytes(runs, { maxBytes: 64 * MIB, maxElements: 50_000, maxEntries: 10 }),
    ).resolves.toBe(200_000);
    const many = zipOf(
      Array.from({ length: 5 }, (_, i) => ({ name: `f${i}.xml`, content: Buffer.from('<a/>') })),
    );
    await expect(unpackedBytes(many, { maxBytes: MIB, maxElements: 100, maxEntries: 4 })).rejects.toThrow(
      'the workbook holds more than 4 files',
    );
    await expect(unpackedBytes(many, { maxBytes: MIB, maxElements: 100, maxEntries: 5 })).resolves.toBe(20);
  });

  it('rejects bytes that are not a zip, and an empty file', async () => {
    await expect(
      unpackedBytes(new TextEncoder().encode('not a zip at all'), bytesOnly(MIB)),
    ).rejects.toThrow();
    await expect(unpackedBytes(new Uint8Array(0), bytesOnly(MIB))).rejects.toThrow(/empty/);
  });

  it('settles on every cut and every damaged byte of a workbook (never waits for ever)', async () => {
    const good = await workbook(10);
    const full = await unpackedBytes(good, bytesOnly(64 * MIB));
    // Bytes after the zip's end record are never read: the count is the workbook's.
    await expect(
      unpackedBytes(Buffer.concat([good, Buffer.from('trailing bytes')]), bytesOnly(64 * MIB)),
    ).resolves.toBe(full);
    // Every cut settles. One at an entry's boundary reads as a shorter zip (so exceljs reads it too); none counts
    // more than the whole workbook; one in the middle of the entries' data rejects.
    for (let cut = 1; cut < good.length; cut += 61) {
      const counted = await unpackedBytes(good.subarray(0, cut), bytesOnly(64 * MIB)).catch(() => 0);
      expect(counted).toBeLessThanOrEqual(full);
    }
    await expect(unpackedBytes(good.subarray(0, good.length >> 1), bytesOnly(64 * MIB))).rejects.toThrow();
    for (let i = 0; i < 200; i++) {
      const damaged = Buffer.from(good);
      const at = (i * 7919) % damaged.length;
      damaged[at] = (damaged[at] as number) ^ 0xff;
      await unpackedBytes(damaged, bytesOnly(64 * MIB)).catch(() => undefined);
    }
  });
});

describe('the import preview and Service:Import:MaxUnpackedMb', () => {
  let t: TestServer;
  let token: string;
  beforeAll(async () => {
    t = await startTestServer({
      env: { Service__Import__MaxUnpackedMb: '1', Service__Security__RateLimit__Enabled: 'false' },
    });
    token = (await login(t, 'superAdmin', TEST_ADMIN_PASSWORD)).accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  const preview = async (bytes: Uint8Array) => {
    const form = new FormData();
    form.append('file', new File([bytes], 'users.xlsx'));
    return json(
      await t.request('/api/v1/sys/user/import/preview', {
        method: 'POST',
        headers: bearer(token),
        body: form,
      }),
    );
  };

  it('refuses a small file that unpacks past the limit with 48000, before reading it', async () => {
    const bomb = await workbook(2 * MIB);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const res = await preview(bomb);
    expect(res.code).toBe(48000);
    expect(res.args.errors).toEqual([{ path: 'file', message: 'the workbook unpacks to more than 1 MiB' }]);
  });

  it('reads a workbook within the limit as before', async () => {
    const res = await preview(await workbook(20));
    expect(res.code).toBe(0);
    expect(res.data.total).toBe(1);
  });

  it('answers an unreadable file and a lying zip with 48000 too', async () => {
    expect((await preview(new TextEncoder().encode('not a zip'))).code).toBe(48000);
    const lying = await preview(lyingZip('xl/sharedStrings.xml', Buffer.alloc(4 * MIB, 'a'), 100));
    expect(lying.code).toBe(48000);
    expect(JSON.stringify(lying)).toContain('unpacks to more than 1 MiB');
  });
});
