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

/**
 * The inverse of {@link neutralise}, for import: a text cell an export neutralised (`'` before what would run as a
 * formula) reads as the value it was, so an export can be imported again (contract §11). A `'` before anything
 * else is the cell's own text and stays.
 */
export function unneutralise(value: string): string {
  return value.startsWith("'") && neutralise(value.slice(1)) === value ? value.slice(1) : value;
}

/** An exported cell: strings are neutralised, numbers and booleans kept, null/undefined empty, dates ISO. */
export function exportCell(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  return neutralise(String(value));
}

/**
 * The plain text of a cell value read by exceljs ('' when empty), or undefined when the workbook does not hold the
 * cell as a value: a formula saved without its result, a shared string the reader did not resolve, a date or
 * number that is none. Turning those into text made
 * `[object Object]` or `NaN` a user's name.
 */
export function readCellText(value: unknown): string | undefined {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString();
  if (typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (Array.isArray(v.richText))
    return (v.richText as { text?: unknown }[])
      .map((r) => String(r.text ?? ''))
      .join('')
      .trim();
  // A formula: its cached result, if the workbook was saved with one.
  if ('formula' in v || 'sharedFormula' in v || 'result' in v)
    return v.result === undefined ? undefined : readCellText(v.result);
  // A hyperlink: its text.
  if ('text' in v) return readCellText(v.text);
  if ('error' in v) return '';
  return undefined;
}

/** {@link readCellText}, with '' for a cell it cannot read. */
export function cellText(value: unknown): string {
  return readCellText(value) ?? '';
}
