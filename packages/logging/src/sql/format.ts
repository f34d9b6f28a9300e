/**
 * Rendering of one SQL statement for the SQL console log and the slow/failed-SQL warnings (spec "SQL console
 * log"): the kind by leading keyword (WITH counts as a query), parameters inlined at their placeholders
 * (`?`, `$n`, `@parN`) with booleans as 1/0 and values of sensitive columns as `'***'` (the log-masking name
 * list, matched against the column the parameter is compared with or inserted into), JSON held in a text
 * parameter masked by property name as the operation log masks it (a job's `props_json` with an Authorization
 * header), and truncation with a note past `MaxSqlChars`.
 */
import { isSensitiveName, maskSensitive, nothingToMask } from '../masking.js';

export type SqlKind = 'Query' | 'Insert' | 'Update' | 'Delete' | 'Ddl' | 'Transaction' | 'Other';

const KINDS: Record<string, SqlKind> = {
  select: 'Query',
  with: 'Query',
  values: 'Query',
  show: 'Query',
  pragma: 'Query',
  insert: 'Insert',
  replace: 'Insert',
  merge: 'Update',
  update: 'Update',
  delete: 'Delete',
  create: 'Ddl',
  alter: 'Ddl',
  drop: 'Ddl',
  truncate: 'Ddl',
  begin: 'Transaction',
  start: 'Transaction',
  commit: 'Transaction',
  rollback: 'Transaction',
  savepoint: 'Transaction',
  release: 'Transaction',
};

/**
 * A SQL Server batch's leading `declare @v table (…);`: @svc/data's inserts that answer rows declare the variable
 * their `OUTPUT … INTO` fills, so the statement that follows tells the batch's kind and columns.
 */
const TABLE_VARIABLE = /^\s*declare\s+@\w+\s+table\s*\([^;]*\)\s*;/i;

/** The statement's kind, by its first keyword (comments, opening parentheses and a table variable skipped). */
export function sqlKind(sql: string): SqlKind {
  const stripped = sql.replace(TABLE_VARIABLE, '').replace(/^(\s|\(|--[^\n]*\n|\/\*[\s\S]*?\*\/)+/, '');
  const word = /^[a-z]+/i.exec(stripped)?.[0]?.toLowerCase() ?? '';
  return KINDS[word] ?? 'Other';
}

const PLACEHOLDER = /\?|\$(\d+)|@par(\d+)/g;
const IDENTIFIER =
  /(?:"([^"]+)"|`([^`]+)`|\[([^\]]+)\]|([A-Za-z_][\w]*))\s*(?:=|<>|!=|<=|>=|<|>|\blike\b|\bin\b\s*\(|\bilike\b)[\s(?$@\w,]*$/i;

/**
 * Column names of an `insert into t (a, b, …) values (…), (…)` per parameter position, if it is one. SQL Server's
 * `output inserted.… [into @v (…)]` may stand before `values`, and a table variable's declaration before the
 * insert (neither holds a parameter, so positions are unchanged).
 */
function insertColumns(sql: string): string[] | undefined {
  const statement = sql.replace(TABLE_VARIABLE, '');
  const m =
    /^\s*insert\s+(?:ignore\s+)?into\s+\S+\s*\(([^)]*)\)\s*(?:output\s[^()]*?(?:\binto\s+\S+\s*\([^)]*\)\s*)?)?values\s*/i.exec(
      statement,
    );
  if (!m?.[1]) return undefined;
  const columns = m[1].split(',').map((c) => c.trim().replace(/^["`[]|["`\]]$/g, ''));
  const names: string[] = [];
  const tuples = statement.slice(m[0].length);
  let index = 0;
  let depth = 0;
  let token = '';
  const flush = () => {
    const placeholders = token.match(PLACEHOLDER)?.length ?? 0;
    for (let i = 0; i < placeholders; i++) names.push(columns[index % columns.length] ?? '');
    index++;
    token = '';
  };
  for (const ch of tuples) {
    if (ch === '(') {
      depth++;
      if (depth === 1) continue;
    }
    if (ch === ')') {
      depth--;
      if (depth === 0) {
        flush();
        index = 0;
        continue;
      }
    }
    if (depth === 1 && ch === ',') {
      flush();
      continue;
    }
    if (depth >= 1) token += ch;
    else if (/[a-z]/i.test(ch)) break; // `on conflict …`, `returning …`
  }
  return names;
}

/** The column name each parameter belongs to, where it can be told (else ''). */
export function parameterColumns(sql: string): string[] {
  const fromInsert = insertColumns(sql);
  const names: string[] = [];
  let ordinal = 0;
  for (const match of sql.matchAll(PLACEHOLDER)) {
    const position = match[1] ? Number(match[1]) - 1 : match[2] ? Number(match[2]) : ordinal;
    ordinal++;
    if (fromInsert?.[position] !== undefined && fromInsert[position] !== '') {
      names[position] = fromInsert[position] as string;
      continue;
    }
    const before = sql.slice(Math.max(0, match.index - 200), match.index);
    const id = IDENTIFIER.exec(before);
    names[position] = id ? (id[1] ?? id[2] ?? id[3] ?? id[4] ?? '') : (names[position] ?? '');
  }
  return names;
}

/** A parameter as SQL text. */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (value instanceof Date)
    return `'${Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString()}'`;
  if (value instanceof Uint8Array) return `<binary ${value.byteLength} bytes>`;
  const text = typeof value === 'string' ? value : safeJson(value);
  return `'${text.replaceAll("'", "''")}'`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '<unserializable>';
  }
}

/** The statement with its parameters inlined; sensitive columns' values become `'***'`. */
export function inlineParams(sql: string, params: readonly unknown[]): string {
  if (params.length === 0) return sql;
  const columns = parameterColumns(sql);
  let ordinal = 0;
  return sql.replace(PLACEHOLDER, (token, dollar: string | undefined, par: string | undefined) => {
    const position = dollar ? Number(dollar) - 1 : par ? Number(par) : ordinal;
    ordinal++;
    if (position < 0 || position >= params.length) return token;
    return isSensitiveName(columns[position] ?? '') ? "'***'" : sqlLiteral(maskedJson(params[position]));
  });
}

/** A text parameter holding JSON with sensitive names, masked (`maskSensitive`); anything else as it is. */
function maskedJson(value: unknown): unknown {
  return typeof value === 'string' && !nothingToMask(value) ? maskSensitive(value) : value;
}

/** Cuts `text` past `max` characters with a note naming the full length. */
export function truncateSql(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [truncated: ${text.length} characters in all]`;
}

/**
 * `text` (e.g. a driver's error message, which may quote the offending value: MySQL's "Duplicate entry '…'")
 * with every value of a sensitive parameter replaced by `***`.
 */
export function redactSensitiveValues(text: string, sql: string, params: readonly unknown[]): string {
  const columns = parameterColumns(sql);
  let out = text;
  params.forEach((value, i) => {
    if (!isSensitiveName(columns[i] ?? '') || value === null || value === undefined) return;
    const needle = value instanceof Date ? value.toISOString() : String(value);
    if (needle.length > 0) out = out.split(needle).join('***');
  });
  return out;
}
