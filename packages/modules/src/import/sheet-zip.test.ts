/**
 * The first worksheet of an upload is read the same every time and leaves nothing behind: exceljs' streaming
 * reader lost entries now and then (a valid file answered 48000 about one read in thirty) and copied every sheet it
 * met before the shared strings to a temporary file that the import's read never removed (sheet-zip.ts).
 */
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { BusinessError } from '@svc/kernel';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { SHARED_STRINGS, sheetEntries, sheetZip, WORKSHEET } from './sheet-zip.js';
import { exceljsDependency, unpackWorkbook } from './unpacked.js';
import { readSheet } from './users-import.js';

const LIMITS = { maxRows: 10_000, maxUnpackedBytes: 32 * 1024 * 1024 };
const HEADERS = ['Account', 'Real name', 'Organisation code', 'Gender'];
const ROWS = [
  ['ann', 'Ann', 'root', 'Female'],
  ['bob', 'Bob', 'root', 'Male'],
];

/** A workbook as exceljs writes it (two sheets, each before the shared strings). */
async function workbook(): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Users');
  sheet.addRow(HEADERS);
  for (const row of ROWS) sheet.addRow(row);
  book.addWorksheet('Lists').addRow(['Female', 'Male']);
  return new Uint8Array(await book.xlsx.writeBuffer());
}

/** The part of JSZip (exceljs' own zip library) the test edits a workbook with. */
interface Zip {
  file(name: string): { async(type: 'string'): Promise<string> } | null;
  file(name: string, data: string): unknown;
  remove(name: string): unknown;
  generateAsync(options: { type: 'nodebuffer' }): Promise<Buffer>;
}

/** The entry paths in the order the streaming parser meets them. */
async function entryOrder(bytes: Uint8Array): Promise<string[]> {
  const order: string[] = [];
  await unpackWorkbook(bytes, { maxBytes: 1 << 30, maxElements: 1 << 30, maxEntries: 1_000 }, (path) => {
    order.push(path);
    return false;
  });
  return order;
}

/** exceljs' temporary files of this process (the `tmp` package's names). */
const temporaryFiles = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`tmp-${process.pid}-`));

describe('reading the first worksheet of an upload', () => {
  // Three hundred reads: a few seconds on a loaded machine, hence the longer budget.
  it('reads the same rows on every read of a workbook whose sheets come first, and leaves no file behind', {
    timeout: 120_000,
  }, async () => {
    const bytes = await workbook();
    const order = await entryOrder(bytes);
    // The order that sent exceljs down its temporary-file path: the sheet before the shared strings.
    expect(order.findIndex((p) => WORKSHEET.test(p))).toBeLessThan(order.indexOf(SHARED_STRINGS));
    const before = temporaryFiles();
    // One read in about thirty failed before: three hundred reads in a row all answer the rows.
    for (let read = 0; read < 300; read += 1) {
      const sheet = await readSheet(bytes, LIMITS);
      expect(sheet.headers).toEqual(HEADERS);
      expect(sheet.data).toEqual(ROWS);
    }
    expect(temporaryFiles()).toEqual(before);
  });

  it('reads a workbook that keeps its strings in the cells (no shared-strings entry)', async () => {
    // exceljs always writes shared strings: its cells are turned into inline strings and the table taken out.
    const JSZip = exceljsDependency<{ loadAsync(data: Uint8Array): Promise<Zip> }>('jszip');
    const zip = await JSZip.loadAsync(await workbook());
    const table = (await zip.file(SHARED_STRINGS)?.async('string')) ?? '';
    const strings = [...table.matchAll(/<si><t[^>]*>([^<]*)<\/t><\/si>/g)].map((m) => m[1] as string);
    for (const name of ['xl/worksheets/sheet1.xml', 'xl/worksheets/sheet2.xml']) {
      const xml = (await zip.file(name)?.async('string')) ?? '';
      zip.file(
        name,
        xml.replace(
          /<c r="([A-Z]+\d+)"([^>]*) t="s"><v>(\d+)<\/v><\/c>/g,
          (_m: string, ref: string, attrs: string, index: string) =>
            `<c r="${ref}"${attrs} t="inlineStr"><is><t>${strings[Number(index)]}</t></is></c>`,
        ),
      );
    }
    zip.remove(SHARED_STRINGS);
    const bytes = new Uint8Array(await zip.generateAsync({ type: 'nodebuffer' }));
    expect(await entryOrder(bytes)).not.toContain(SHARED_STRINGS);
    const sheet = await readSheet(bytes, LIMITS);
    expect(sheet.headers).toEqual(HEADERS);
    expect(sheet.data).toEqual(ROWS);
  });

  it('keeps only the entries the first sheet needs, the first sheet the parser meets', async () => {
    const keep = sheetEntries();
    const paths = (await entryOrder(await workbook())).filter(keep);
    expect(paths).toEqual(
      expect.arrayContaining(['xl/_rels/workbook.xml.rels', 'xl/workbook.xml', SHARED_STRINGS]),
    );
    expect(paths.filter((p) => WORKSHEET.test(p))).toEqual(['xl/worksheets/sheet1.xml']);
  });

  it('refuses a zip with a worksheet but no workbook, and answers none for a zip without a worksheet', async () => {
    const sheet = Buffer.from('<worksheet/>');
    await expect(sheetZip(new Map([['xl/worksheets/sheet1.xml', sheet]]))).rejects.toThrow(/missing/);
    expect(await sheetZip(new Map([['xl/workbook.xml', sheet]]))).toBeUndefined();
    // Through the reader: a workbook without worksheets is an empty file (46002).
    const empty = new ExcelJS.Workbook();
    empty.addWorksheet('Users');
    const bytes = new Uint8Array(await empty.xlsx.writeBuffer());
    const refused = await readSheet(bytes, LIMITS).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BusinessError);
    expect((refused as BusinessError).code).toBe(46002);
  });
});
