/**
 * Streamed .xlsx exports: exceljs' WorkbookWriter commits every row into the zip as it is added, and the zip is
 * piped to the HTTP response, so memory stays flat whatever the row count (bench/export.mjs). Rows are read a
 * page at a time, and the next page only once the zip and the client have caught up (see `caughtUp`). Only the asked columns
 * are written; string cells are neutralised (cells.ts).
 */
import { PassThrough, Readable } from 'node:stream';
import { BusinessError } from '@svc/kernel';
import { exportCell } from './cells.js';
import { ImportErrorCode } from './codes.js';
import { loadExcel } from './provider.js';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface ExportColumn<R> {
  key: string;
  header: string;
  value(row: R): unknown;
}

/** Uncompressed bytes allowed to wait in front of the zip's deflate. */
const ZIP_WINDOW_BYTES = 256 * 1024;

interface PendingStream {
  _writableState?: { length?: number };
  _readableState?: { length?: number };
}

/** Rows read per page. */
export const EXPORT_PAGE_SIZE = 1000;

/**
 * The columns to write: all of them, or those named in `columns` (comma-separated keys, any case, in the given
 * order). An unknown name answers 46013 naming it.
 */
export function pickColumns<R>(
  all: readonly ExportColumn<R>[],
  columns: string | undefined,
): ExportColumn<R>[] {
  const names = (columns ?? '')
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  // Absent, blank or only separators (`columns=,`): every column, never an empty workbook.
  if (names.length === 0) return [...all];
  const unknown = names.filter((n) => !all.some((c) => c.key.toLowerCase() === n.toLowerCase()));
  if (unknown.length > 0)
    throw new BusinessError(ImportErrorCode.ExportColumnInvalid, {
      columns: unknown,
      allowed: all.map((c) => c.key),
    });
  return [...new Set(names.map((n) => n.toLowerCase()))].map(
    (n) => all.find((c) => c.key.toLowerCase() === n) as ExportColumn<R>,
  );
}

/**
 * Checks the row limit on the first page (46012), then answers a stream of the workbook. `firstPage()` reads the
 * first `EXPORT_PAGE_SIZE` rows with the total; `nextPage(last, n)` the `EXPORT_PAGE_SIZE` rows after `last`, the
 * last row written, in the same order (`n` is the 1-based number of that page, for a read by offset). Pages are
 * read until one comes back short or `maxRows` rows are written.
 */
export async function streamWorkbook<R>(options: {
  sheet: string;
  fileName: string;
  columns: readonly ExportColumn<R>[];
  maxRows: number;
  firstPage(): Promise<{ total: number; items: R[] }>;
  nextPage(last: R, page: number): Promise<R[]>;
  onError(error: unknown): void;
}): Promise<Response> {
  const first = await options.firstPage();
  if (first.total > options.maxRows)
    throw new BusinessError(ImportErrorCode.ExportRowLimitExceeded, {
      rows: first.total,
      max: options.maxRows,
    });
  const ExcelJS = await loadExcel();
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: false,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(options.sheet);
  const columns = options.columns;
  /**
   * Waits until the zip has taken in what the sheet produced and the client has taken the zip's output.
   * exceljs' sheet stream pushes into archiver's entry stream without back-pressure, so without this wait the
   * uncompressed XML of every row piles up there (outside the heap) until the end. The entry stream is reached
   * through exceljs 4.4 internals (`stream.pipes[0]`); if their shape changes, only this wait is lost.
   */
  async function caughtUp(): Promise<void> {
    for (;;) {
      if (out.destroyed) throw new Error('export stream closed by the client');
      const entry = (sheet as unknown as { stream?: { pipes?: PendingStream[] } }).stream?.pipes?.[0];
      const pending = entry ? (entry._writableState?.length ?? 0) + (entry._readableState?.length ?? 0) : 0;
      if (pending <= ZIP_WINDOW_BYTES && !out.writableNeedDrain) return;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
  void (async () => {
    sheet.addRow(columns.map((c) => c.header)).commit();
    let items = first.items;
    let written = 0;
    for (let current = 1; ; current += 1) {
      for (const row of items) {
        if (written >= options.maxRows) break;
        sheet.addRow(columns.map((c) => exportCell(c.value(row)))).commit();
        written += 1;
      }
      await caughtUp();
      const last = items.at(-1);
      if (last === undefined || items.length < EXPORT_PAGE_SIZE || written >= options.maxRows) break;
      items = await options.nextPage(last, current + 1);
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error) => {
    options.onError(error);
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  const name = encodeURIComponent(options.fileName);
  return new Response(Readable.toWeb(out) as unknown as ReadableStream, {
    status: 200,
    headers: {
      'Content-Type': XLSX_TYPE,
      'Content-Disposition': `attachment; filename="${options.fileName}"; filename*=UTF-8''${name}`,
    },
  });
}

/** A small workbook (template, error report) as a download. */
export function xlsxResponse(bytes: Buffer, fileName: string): Response {
  return new Response(new Uint8Array(bytes), {
    status: 200,
    headers: { 'Content-Type': XLSX_TYPE, 'Content-Disposition': `attachment; filename="${fileName}"` },
  });
}
