/**
 * Cell text in and out of spreadsheets. Import turns whatever exceljs read (text, numbers, dates, rich text,
 * hyperlinks, formula results) into the plain string a row carries; export neutralises text a spreadsheet
 * would run as a formula (OWASP "CSV injection"): a value whose first character, after any leading spaces,
 * tabs, CR or LF, is `=`, `+`, `-`, `@` (or which starts with a tab or CR itself) gets a leading `'`, so it is
 * shown as typed and never evaluated. Numbers are written as numbers, never neutralised.
 */

const FORMULA_START = /^[\s]*[=+\-@]/;
const CONTROL_START = /^[\t\r]/;

/** The text to write for an exported string cell. */
export function neutralise(value: string): string {
  return FORMULA_START.test(value) || CONTROL_START.test(value) ? `'${value}` : value;
}

/** An exported cell: strings are neutralised, numbers and booleans kept, null/undefined empty, dates ISO. */
export function exportCell(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  return neutralise(String(value));
}

/** The plain text of a cell value read by exceljs ('' when empty). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText))
      return (v.richText as { text?: unknown }[])
        .map((r) => String(r.text ?? ''))
        .join('')
        .trim();
    if ('result' in v) return cellText(v.result);
    if ('text' in v) return cellText(v.text);
    if ('error' in v) return '';
  }
  return String(value).trim();
}
