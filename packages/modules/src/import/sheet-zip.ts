/**
 * The workbook exceljs' streaming reader is given: a zip of only what reading the first worksheet needs, in the
 * order that lets the reader parse it in one pass, and a stream that cannot end before the reader has read it.
 *
 * Two faults of exceljs 4.4 (with unzipper 0.10) made reading an upload unreliable:
 * - A worksheet met before `sharedStrings.xml` (exceljs and Excel both write them in that order) is copied to a
 *   temporary file and parsed after the zip; the file is removed only when the reader goes on past that sheet, so
 *   the import, which reads the first sheet only, left one file of user data in the temporary folder per read.
 * - unzipper's `Parse` emits `end` as soon as its input is written, while entries it has parsed may still wait in
 *   its buffer; exceljs' loop over the entries then stops early whenever it was busy at that moment (copying a
 *   sheet to its temporary file), and a valid upload failed with 48000 about one read in thirty.
 *
 * So the entries come from the streaming parser the limits were checked with (`unpackWorkbook`): the workbook's
 * relations, the workbook, the shared strings (an empty table when the workbook keeps its strings inline) and the
 * first worksheet the parser meets, packed uncompressed in that order (exceljs then parses the sheet where it meets
 * it, no temporary file). The stream given to exceljs carries the zip and then a spare end-of-directory record and
 * never ends: unzipper stops at the zip's own record and never takes the spare one, so its input is never done and
 * the only `end` is the one that follows the entries.
 */
import { Readable } from 'node:stream';
import { exceljsDependency } from './unpacked.js';

export const WORKBOOK_RELS = 'xl/_rels/workbook.xml.rels';
export const WORKBOOK = 'xl/workbook.xml';
export const SHARED_STRINGS = 'xl/sharedStrings.xml';
/** The worksheets exceljs' streaming reader reads (by path; other entries are not worksheets to it). */
export const WORKSHEET = /^xl\/worksheets\/sheet\d+\.xml$/;

const EMPTY_SHARED_STRINGS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>';

/** An end-of-central-directory record of an empty zip (its signature, then zeros). */
const SPARE_END_RECORD = Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)]);

interface JsZipInstance {
  file(name: string, data: Uint8Array | string): unknown;
  generateAsync(options: { type: 'nodebuffer'; compression: 'STORE' }): Promise<Buffer>;
}

/** Picks, in the parser's order, the entries {@link sheetZip} needs: a filter for `unpackWorkbook`. */
export function sheetEntries(): (path: string) => boolean {
  let sheet: string | undefined;
  return (path) => {
    if (path === WORKBOOK_RELS || path === WORKBOOK || path === SHARED_STRINGS) return true;
    if (sheet !== undefined || !WORKSHEET.test(path)) return false;
    sheet = path;
    return true;
  };
}

/**
 * The zip of the first worksheet among `kept` (the entries {@link sheetEntries} chose), or undefined when the
 * workbook holds no worksheet. Throws when the workbook or its relations are missing (not a workbook).
 */
export async function sheetZip(kept: ReadonlyMap<string, Buffer>): Promise<Buffer | undefined> {
  const sheet = [...kept.keys()].find((path) => WORKSHEET.test(path));
  if (sheet === undefined) return undefined;
  const rels = kept.get(WORKBOOK_RELS);
  const workbook = kept.get(WORKBOOK);
  if (!rels || !workbook) throw new Error('the workbook or its relations are missing');
  const JSZip = exceljsDependency<new () => JsZipInstance>('jszip');
  const zip = new JSZip();
  zip.file(WORKBOOK_RELS, rels);
  zip.file(WORKBOOK, workbook);
  zip.file(SHARED_STRINGS, kept.get(SHARED_STRINGS) ?? EMPTY_SHARED_STRINGS);
  zip.file(sheet, kept.get(sheet) as Buffer);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'STORE' });
}

/** A stream of `zip` and a spare end record that never ends (destroy it once read; see the module comment). */
export function readerInput(zip: Buffer): Readable {
  let given = false;
  return new Readable({
    read() {
      if (given) return;
      given = true;
      // Both in one turn: the spare record is written to the parser before it can reach the zip's own.
      this.push(zip);
      this.push(SPARE_END_RECORD);
    },
  });
}
