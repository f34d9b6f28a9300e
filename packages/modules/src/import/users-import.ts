/**
 * User import (modules.md "Small routes"; contract §10 "Imported accounts' passwords"): the columns, the
 * template, reading a sheet into rows, checking rows and committing them.
 *
 * Every row is checked against the same rules as admin create, in bulk (a handful of queries per request, not
 * per row, so 10,000 rows fit one request): required cells 46005, dictionary values 46006 (value or label of the
 * enabled items), references 46007 (organisation, position and role codes), formats 46008 (account name rules of
 * create, e-mail, phone, lengths), duplicates in the file 46009 (the later row), accounts that exist 46010, an
 * organisation outside the caller's data scope 46011, roles granting codes the caller lacks 41001. An overwrite
 * of an existing user also needs what admin update needs: the user inside the caller's scope, not the super admin
 * (42007) and the rank rule (41001). An existing account outside the scope answers 46010 alone, without its id
 * (contract §11): the caller learns that the name is taken, as admin create tells them (42006), and nothing else;
 * Skip skips it like any existing account, Overwrite and Error fail it.
 *
 * Commit writes nothing unless every row passes: one transaction, so a failure leaves nothing half-written. The
 * strategy decides only what an existing account means: 0 Skip (counted as skipped), 1 Overwrite (updated),
 * 2 Error (a failure, 46010). Created accounts share the configured initial password hashed ONCE per commit
 * (46014 when unset) and must change it; their first login rehashes it with a salt of their own.
 */
import {
  DataScope,
  isInDataScope,
  isUniqueViolation,
  type NewUser,
  type OrgLink,
  type Repositories,
  type RoleScope,
  type SysUserRow,
  type UserPatch,
} from '@svc/data';
import {
  BusinessError,
  type Configuration,
  ErrorCode,
  type ErrorCodeMember,
  type ErrorCodeRegistry,
  hashPassword,
  isPhoneNumber,
} from '@svc/kernel';
import {
  type AdminActor,
  AdminErrorCode,
  assertPassword,
  codesOfPermissionTexts,
  normalizeAccountName,
  type PermissionCache,
  type RuntimeSettings,
  type SessionManager,
  scopeBeyond,
} from '@svc/security';
import { neutralise, readCellText, unneutralise } from './cells.js';
import { ImportErrorCode } from './codes.js';
import type { ImportOptions } from './options.js';
import { loadExcel } from './provider.js';
import { readerInput, sheetEntries, sheetZip } from './sheet-zip.js';
import { UnpackedTooLarge, unpackWorkbook } from './unpacked.js';

const MIB = 1024 * 1024;

/** One import column: its key (the row's cell key), header, and what it must hold. */
export interface ImportColumn {
  key: string;
  header: string;
  required: boolean;
  /** A dictionary type code: the cell is one of its enabled items (value or label). */
  dict?: string;
  /** Most characters. */
  max: number;
}

export const USER_IMPORT_COLUMNS: readonly ImportColumn[] = [
  { key: 'account', header: 'Account', required: true, max: 64 },
  { key: 'realName', header: 'Real name', required: true, max: 64 },
  { key: 'nickName', header: 'Nick name', required: false, max: 64 },
  { key: 'orgCode', header: 'Organisation code', required: true, max: 64 },
  { key: 'positionCode', header: 'Position code', required: false, max: 64 },
  { key: 'roleCodes', header: 'Role codes', required: false, max: 1000 },
  { key: 'phone', header: 'Phone', required: false, max: 32 },
  { key: 'email', header: 'Email', required: false, max: 128 },
  { key: 'gender', header: 'Gender', required: false, dict: 'gender', max: 128 },
  { key: 'enabled', header: 'Status', required: false, dict: 'common_status', max: 128 },
  { key: 'remark', header: 'Remark', required: false, max: 500 },
];

const COLUMN_KEYS = new Set(USER_IMPORT_COLUMNS.map((c) => c.key));

export interface CellError {
  columnKey: string;
  code: number;
  args?: Record<string, unknown>;
}

/** A row of an import: its sheet index (1 = first data row), its cells by column key, and its errors. */
export interface ImportRow {
  index: number;
  cells: Record<string, string>;
  errors: CellError[];
}

export interface ImportPreview {
  headers: string[];
  mapping: Record<string, string>;
  columns: ImportColumn[];
  rows: ImportRow[];
  total: number;
  errorRows: number;
  columnErrors: CellError[];
}

export const ImportStrategy = { Skip: 0, Overwrite: 1, Error: 2 } as const;
export type ImportStrategyValue = (typeof ImportStrategy)[keyof typeof ImportStrategy];

export interface ImportCommitResult {
  total: number;
  inserted: number;
  updated: number;
  skipped: number;
  failed: number;
  failures: { index: number; errors: CellError[] }[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const err = (columnKey: string, member: ErrorCodeMember, args?: Record<string, unknown>): CellError =>
  args ? { columnKey, code: member.code, args } : { columnKey, code: member.code };

/** The key a header maps to: an explicit mapping first, else the column's header or key (any case). */
function defaultKeyOf(header: string): string | undefined {
  const h = header.trim().toLowerCase();
  return USER_IMPORT_COLUMNS.find((c) => c.header.toLowerCase() === h || c.key.toLowerCase() === h)?.key;
}

/** What {@link readSheet} accepts. */
export interface SheetLimits {
  /** Data rows (46003 beyond). */
  maxRows: number;
  /** Bytes the whole file may inflate to (48000 beyond, before exceljs reads it: see unpacked.ts). */
  maxUnpackedBytes: number;
}

/** Files in an .xlsx: a workbook has a dozen or two (a few more per sheet or picture). */
export const MAX_WORKBOOK_ENTRIES = 1_000;

/**
 * XML elements a workbook of `maxRows` rows may hold: a row of the import's 14 columns is ~45 elements and a
 * shared string ~3, so 200 a row leaves room for wide and styled sheets; never fewer than 100,000.
 */
export const maxWorkbookElements = (maxRows: number): number => Math.max(100_000, maxRows * 200);

/**
 * Columns a sheet may span. exceljs hands each row over as an array as long as its last used column, so one cell
 * at XFD (16,384) in every row of a 67 KB file made 10,000 rows of 16,384 slots each: 1.5 GB and seconds of
 * stalled event loop for one request (helper-71). The import has 14 columns; a sheet may carry others beside them.
 */
export const MAX_SHEET_COLUMNS = 256;

/** A cell of a data row the reader could not turn into text (0-based row of `data`, column of `headers`). */
export interface UnreadableCell {
  row: number;
  column: number;
}

const unreadable = (message: string) =>
  new BusinessError(ErrorCode.ParamInvalid, { errors: [{ path: 'file', message }] });

/**
 * Reads the first worksheet of an .xlsx with exceljs' streaming reader: the header row, then at most
 * `maxRows` data rows (46003 beyond, 46002 when there is no data row). Blank rows are skipped. A file that
 * inflates to more than `maxUnpackedBytes`, more XML elements than {@link maxWorkbookElements} or more files
 * than {@link MAX_WORKBOOK_ENTRIES} is refused (48000) before exceljs reads it (unpacked.ts).
 */
export async function readSheet(
  bytes: Uint8Array,
  { maxRows, maxUnpackedBytes }: SheetLimits,
): Promise<{ headers: string[]; data: string[][]; unreadable: UnreadableCell[] }> {
  const ExcelJS = await loadExcel();
  let zip: Buffer | undefined;
  try {
    const { kept } = await unpackWorkbook(
      bytes,
      {
        maxBytes: maxUnpackedBytes,
        maxElements: maxWorkbookElements(maxRows),
        maxEntries: MAX_WORKBOOK_ENTRIES,
      },
      sheetEntries(),
    );
    zip = await sheetZip(kept);
  } catch (error) {
    throw unreadable(error instanceof UnpackedTooLarge ? error.message : 'not a readable .xlsx workbook');
  }
  if (!zip) throw new BusinessError(ImportErrorCode.ImportFileEmpty);
  // The first worksheet alone, read in one pass (sheet-zip.ts: exceljs' own order lost entries and left files).
  const input = readerInput(zip);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  let headers: string[] | undefined;
  const data: string[][] = [];
  const unreadableCells: UnreadableCell[] = [];
  try {
    for await (const sheet of reader) {
      for await (const row of sheet) {
        const raw = row.values as unknown[];
        if (raw.length - 1 > MAX_SHEET_COLUMNS)
          throw unreadable(`the first sheet has cells beyond column ${MAX_SHEET_COLUMNS}`);
        const values: string[] = [];
        const lost: number[] = [];
        for (let column = 1; column < raw.length; column += 1) {
          const text = readCellText(raw[column]);
          if (text === undefined) lost.push(column - 1);
          values.push(text === undefined ? '' : unneutralise(text));
        }
        if (lost.length === 0 && values.every((v) => v === '')) continue;
        if (!headers) {
          headers = values;
          continue;
        }
        if (data.length >= maxRows)
          throw new BusinessError(ImportErrorCode.ImportRowLimitExceeded, { max: maxRows });
        for (const column of lost) unreadableCells.push({ row: data.length, column });
        data.push(values);
      }
      break; // the first sheet only
    }
  } catch (error) {
    if (error instanceof BusinessError) throw error;
    throw unreadable('not a readable .xlsx workbook');
  } finally {
    input.destroy();
  }
  if (!headers || data.length === 0) throw new BusinessError(ImportErrorCode.ImportFileEmpty);
  return { headers, data, unreadable: unreadableCells };
}

/** What the checks need, loaded once per request. */
interface Lookups {
  orgs: Map<string, number>;
  positions: Map<string, number>;
  roles: Map<string, number>;
  /** Dictionary type code -> (lower-case value or label -> value). */
  dicts: Map<string, Map<string, string>>;
  /** Live users by lower-case account. */
  existing: Map<string, SysUserRow>;
  /** Role ids that grant codes the caller lacks. */
  ungrantable: Set<number>;
  /** Existing users the caller may not overwrite, with the reason. */
  untouchable: Map<number, CellError>;
  /** Existing users outside the caller's data scope (contract §11): a taken name, nothing more. */
  hidden: Set<number>;
  scope: Awaited<ReturnType<AdminActor['scope']>>;
  /**
   * For a caller who does not see all: the data scopes of the roles a row may give (named in the file, or held
   * by an existing user whose organisation the row moves), the organisation tree, and the existing users' roles.
   */
  widening?: { scopes: Map<number, RoleScope>; links: OrgLink[]; rolesOf: Map<number, number[]> };
}

export interface UserImportService {
  template(): Promise<Buffer>;
  preview(actor: AdminActor, bytes: Uint8Array, mapping?: Record<string, string>): Promise<ImportPreview>;
  validate(actor: AdminActor, rows: readonly Pick<ImportRow, 'index' | 'cells'>[]): Promise<ImportRow[]>;
  errorReport(rows: readonly ImportRow[]): Promise<Buffer>;
  commit(
    actor: AdminActor,
    rows: readonly Pick<ImportRow, 'index' | 'cells'>[],
    strategy: ImportStrategyValue,
    options?: ImportCommitOptions,
  ): Promise<ImportCommitResult>;
  /** The names an export writes instead of ids (contract §11: an export can be imported again). */
  exportNames(): Promise<ExportNames>;
}

export interface ImportCommitOptions {
  /**
   * The created accounts' initial password when `Service:Security:DefaultInitialPassword` is unset (contract
   * §11); checked by the password policy (42019).
   */
  initialPassword?: string | undefined;
}

/** Id → code of organisations, positions and roles; dictionary value → label of `gender` and `common_status`. */
export interface ExportNames {
  orgs: Map<number, string>;
  positions: Map<number, string>;
  roles: Map<number, string>;
  dicts: Map<string, Map<string, string>>;
}

const lower = (s: string) => s.trim().toLowerCase();
const splitCodes = (s: string) =>
  s
    .split(/[,;，；]/)
    .map((x) => x.trim())
    .filter((x) => x !== '');

/** What the user import is built from (module `Import`, from the module core). */
export interface UserImportDeps {
  repos: Repositories;
  /** Revokes a user's sessions when an overwrite disables them. */
  sessions: Pick<SessionManager, 'revokeUserSessions'>;
  /** Drops a user's cached permission codes when an overwrite changes their roles or disables them. */
  permissions: Pick<PermissionCache, 'invalidateUser'>;
  /** The initial-password settings of `Service:Security`. */
  config: Configuration;
  /** The module's options (`Service:Import`). */
  options: ImportOptions;
  /** The message keys written into the error report. */
  errors: Pick<ErrorCodeRegistry, 'msgKeyOf'>;
  /** The password policy an initial password given with a commit is checked against. */
  settings: Pick<RuntimeSettings, 'passwordPolicy'>;
  now: () => Date;
}

export function createUserImportService(deps: UserImportDeps): UserImportService {
  const { repos } = deps;
  const { options } = deps;
  const BIG = { current: 1, size: 100_000 };

  async function dictItems(): Promise<Map<string, Map<string, string>>> {
    const dicts = new Map<string, Map<string, string>>();
    for (const column of USER_IMPORT_COLUMNS) {
      if (!column.dict || dicts.has(column.dict)) continue;
      const items = new Map<string, string>();
      for (const item of await repos.dicts.enabledItems(column.dict)) {
        items.set(lower(item.value), item.value);
        items.set(lower(item.label), item.value);
      }
      dicts.set(column.dict, items);
    }
    return dicts;
  }

  async function lookups(actor: AdminActor, rows: readonly Pick<ImportRow, 'cells'>[]): Promise<Lookups> {
    const orgs = new Map((await repos.orgs.list()).map((o) => [lower(o.code), o.id]));
    const positions = new Map((await repos.positions.page(BIG)).items.map((p) => [lower(p.code), p.id]));
    const roleRows = (await repos.roles.page(BIG)).items;
    const roles = new Map(roleRows.map((r) => [lower(r.code), r.id]));
    // As named and as a create would store it (NFKC: a full-width copy of an account is that account).
    const named = rows.map((r) => r.cells.account ?? '').filter((a) => a.trim() !== '');
    const accounts = [...new Set(named.flatMap((a) => [a, a.normalize('NFKC')]))];
    const existing = new Map(
      (await repos.users.findLiveByAccounts(accounts)).map((u) => [lower(u.account), u]),
    );
    const scope = await actor.scope();
    // Roles named in the file that grant codes the caller lacks (checked once per role, not per row).
    const ungrantable = new Set<number>();
    if (!actor.isSuperAdmin) {
      const held = await actor.codes();
      const named = new Set(rows.flatMap((r) => splitCodes(r.cells.roleCodes ?? '')).map(lower));
      for (const code of named) {
        const id = roles.get(code);
        if (id === undefined) continue;
        const codes = codesOfPermissionTexts(await repos.roles.permissionsOfRoles([id]));
        if (codes.some((c) => !held.has(c))) ungrantable.add(id);
      }
    }
    // Existing users an overwrite may not touch (the rules of admin update).
    const untouchable = new Map<number, CellError>();
    /** Existing users outside the caller's data scope: their rows answer 46010 alone, whatever else applies. */
    const hidden = new Set<number>();
    for (const user of existing.values()) {
      // Nobody edits their own account through an import (admin update's self rules stay with admin update).
      if (user.id === actor.userId)
        untouchable.set(user.id, err('account', AdminErrorCode.CannotOperateSelf));
      // Scope first (contract §11): of an account outside it the caller learns only that the name is taken, as
      // admin create tells anyone who may create users (42006), never its id, nor that it is the super admin's.
      else if (!isInDataScope(scope, { orgId: user.orgId, ownerId: user.id })) hidden.add(user.id);
      else if (user.isSuperAdmin && !actor.isSuperAdmin)
        untouchable.set(user.id, err('account', AdminErrorCode.SuperAdminProtected));
    }
    if (!actor.isSuperAdmin) {
      const held = await actor.codes();
      const targets = [...existing.values()].filter(
        (u) => !untouchable.has(u.id) && !hidden.has(u.id) && u.id !== actor.userId,
      );
      const roleIdsByUser = await repos.users.roleIdsOf(targets.map((u) => u.id));
      const codesByRole = new Map<number, string[]>();
      for (const target of targets) {
        for (const roleId of roleIdsByUser.get(target.id) ?? []) {
          let codes = codesByRole.get(roleId);
          if (!codes) {
            codes = await potentialCodesOfRole(roleId);
            codesByRole.set(roleId, codes);
          }
          if (codes.some((c) => !held.has(c))) {
            untouchable.set(target.id, err('account', ErrorCode.NoPermission, { reason: 'rank' }));
            break;
          }
        }
      }
    }
    let widening: Lookups['widening'];
    if (!actor.isSuperAdmin && !scope.all) {
      const rolesOf = await repos.users.roleIdsOf([...existing.values()].map((u) => u.id));
      const named = rows.flatMap((r) => splitCodes(r.cells.roleCodes ?? '')).map((c) => roles.get(lower(c)));
      const ids = [...named, ...[...rolesOf.values()].flat()].filter((id) => id !== undefined);
      const scopes = new Map((await repos.roles.scopesOfRoles(ids)).map((s) => [s.roleId, s]));
      const tree = [...scopes.values()].some((s) => s.dataScope === DataScope.OrgAndChildren);
      widening = { scopes, links: tree ? await repos.orgs.links() : [], rolesOf };
      // Nor an existing user whose roles see beyond the caller (the scope rule of admin update, assertOutranksUsers).
      for (const user of existing.values()) {
        if (untouchable.has(user.id) || hidden.has(user.id)) continue;
        const held = (rolesOf.get(user.id) ?? []).flatMap((id) => scopes.get(id) ?? []);
        const beyond = scopeBeyond(scope, held, user, widening.links);
        if (beyond === 'all' || beyond.length > 0)
          untouchable.set(user.id, err('account', ErrorCode.OutOfDataScope, { reason: 'data-scope' }));
      }
    }
    return {
      orgs,
      positions,
      roles,
      dicts: await dictItems(),
      existing,
      ungrantable,
      untouchable,
      hidden,
      scope,
      widening,
    };
  }

  /** The rows among `creates` (sheet rows `rows`, by position) whose account exists now: 46010 each. */
  async function takenMeanwhile(
    creates: readonly { user: NewUser }[],
    rows: readonly number[],
  ): Promise<ImportCommitResult['failures']> {
    const accounts = creates.map((c) => c.user.account);
    const taken = new Set((await repos.users.findLiveByAccounts(accounts)).map((u) => lower(u.account)));
    return creates.flatMap((create, i) =>
      taken.has(lower(create.user.account))
        ? [{ index: rows[i] as number, errors: [err('account', ImportErrorCode.ImportDuplicateInDb)] }]
        : [],
    );
  }

  /**
   * A cell error when the row's roles would let its user see organisations the caller does not (admin create and
   * update refuse the same, `assertScopeWithin`): the roles named, or the user's own when the row moves them. On
   * an existing account it refuses the overwrite only (a skipped row is not written).
   */
  function scopeError(cells: Record<string, string>, existing: SysUserRow | undefined, l: Lookups) {
    if (!l.widening) return undefined;
    // The organisation the commit writes: an overwrite without one clears it.
    const orgId = cells.orgCode ? (l.orgs.get(lower(cells.orgCode)) ?? null) : null;
    const named = cells.roleCodes ? splitCodes(cells.roleCodes).map((c) => l.roles.get(lower(c))) : undefined;
    const moved = existing !== undefined && orgId !== existing.orgId;
    const held = existing ? (l.widening.rolesOf.get(existing.id) ?? []) : [];
    // As admin update: the roles added, or every role the user will hold when the row moves them.
    const roleIds = moved
      ? (named ?? held)
      : (named ?? []).filter((id) => id === undefined || !held.includes(id));
    const scopes = roleIds.flatMap((id) => l.widening?.scopes.get(id ?? -1) ?? []);
    if (scopes.length === 0) return undefined;
    const beyond = scopeBeyond(l.scope, scopes, { id: existing?.id ?? 0, orgId }, l.widening.links);
    if (beyond !== 'all' && beyond.length === 0) return undefined;
    return err(named ? 'roleCodes' : 'orgCode', ErrorCode.OutOfDataScope, { reason: 'data-scope' });
  }

  function potentialCodesOfRole(roleId: number): Promise<string[]> {
    return repos.roles.permissionsOfRoles([roleId]).then(codesOfPermissionTexts);
  }

  /** Checks every row (errors replace what the row carried); duplicates in the file name the later row. */
  function check(rows: readonly Pick<ImportRow, 'index' | 'cells'>[], l: Lookups): ImportRow[] {
    const seen = new Map<string, number>();
    return rows.map((row) => {
      const cells: Record<string, string> = {};
      for (const [key, value] of Object.entries(row.cells ?? {}))
        if (COLUMN_KEYS.has(key)) cells[key] = typeof value === 'string' ? value.trim() : String(value ?? '');
      const errors: CellError[] = [];
      for (const column of USER_IMPORT_COLUMNS) {
        const value = cells[column.key] ?? '';
        if (value === '') {
          if (column.required) errors.push(err(column.key, ImportErrorCode.ImportCellRequired));
          continue;
        }
        if (value.length > column.max) {
          errors.push(err(column.key, ImportErrorCode.ImportCellFormatInvalid, { max: column.max }));
          continue;
        }
        if (column.dict && !l.dicts.get(column.dict)?.has(lower(value)))
          errors.push(err(column.key, ImportErrorCode.ImportCellDictInvalid, { dict: column.dict, value }));
      }
      const account = cells.account ?? '';
      let existing: SysUserRow | undefined;
      if (account !== '') {
        const key = lower(account.normalize('NFKC'));
        // The rules of new names apply to rows that create an account; a row naming an existing one (created
        // before a rule, such as the single-script one, existed) overwrites it as it is named.
        if (!l.existing.has(key)) {
          try {
            normalizeAccountName(account);
          } catch {
            errors.push(err('account', ImportErrorCode.ImportCellFormatInvalid));
          }
        }
        const first = seen.get(key);
        if (first !== undefined)
          errors.push(err('account', ImportErrorCode.ImportDuplicateInFile, { firstIndex: first }));
        else seen.set(key, row.index);
        existing = l.existing.get(key);
        if (existing && l.hidden.has(existing.id)) {
          // Taken, and nothing more: no id (its detail answers 42001), no overwrite, no other refusal.
          errors.push(err('account', ImportErrorCode.ImportDuplicateInDb));
          existing = undefined;
        } else if (existing) {
          const refused = l.untouchable.get(existing.id);
          errors.push(err('account', ImportErrorCode.ImportDuplicateInDb, { id: existing.id }));
          if (refused) errors.push(refused);
        }
      }
      if (cells.email && !EMAIL.test(cells.email))
        errors.push(err('email', ImportErrorCode.ImportCellFormatInvalid));
      if (cells.phone && !isPhoneNumber(cells.phone))
        errors.push(err('phone', ImportErrorCode.ImportCellFormatInvalid));
      if (cells.orgCode) {
        const orgId = l.orgs.get(lower(cells.orgCode));
        if (orgId === undefined) errors.push(err('orgCode', ImportErrorCode.ImportCellRefNotFound));
        else if (!isInDataScope(l.scope, { orgId, ownerId: null }))
          errors.push(err('orgCode', ImportErrorCode.ImportOrgOutOfScope));
      }
      if (cells.positionCode && !l.positions.has(lower(cells.positionCode)))
        errors.push(err('positionCode', ImportErrorCode.ImportCellRefNotFound));
      if (cells.roleCodes) {
        for (const code of splitCodes(cells.roleCodes)) {
          const id = l.roles.get(lower(code));
          if (id === undefined)
            errors.push(err('roleCodes', ImportErrorCode.ImportCellRefNotFound, { code }));
          else if (l.ungrantable.has(id)) errors.push(err('roleCodes', ErrorCode.NoPermission, { code }));
        }
      }
      const beyond = scopeError(cells, existing, l);
      if (beyond) errors.push(beyond);
      return { index: row.index, cells, errors };
    });
  }

  function assertRowCount(count: number): void {
    if (count === 0) throw new BusinessError(ImportErrorCode.ImportFileEmpty);
    if (count > options.MaxRows)
      throw new BusinessError(ImportErrorCode.ImportRowLimitExceeded, { rows: count, max: options.MaxRows });
  }

  async function validate(actor: AdminActor, rows: readonly Pick<ImportRow, 'index' | 'cells'>[]) {
    assertRowCount(rows.length);
    return check(rows, await lookups(actor, rows));
  }

  const service = {
    async template() {
      const ExcelJS = await loadExcel();
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Users');
      sheet.columns = USER_IMPORT_COLUMNS.map((c) => ({ header: c.header, key: c.key, width: 20 }));
      const dicts = await dictItems();
      // A hidden sheet holds each dictionary's labels; the column's cells offer them as a drop-down.
      const lists = workbook.addWorksheet('Lists', { state: 'veryHidden' });
      let listColumn = 0;
      for (const [i, column] of USER_IMPORT_COLUMNS.entries()) {
        if (!column.dict) continue;
        listColumn += 1;
        const labels = [...new Set((await repos.dicts.enabledItems(column.dict)).map((item) => item.label))];
        if (labels.length === 0 || !dicts.has(column.dict)) continue;
        labels.forEach((label, row) => {
          lists.getCell(row + 1, listColumn).value = label;
        });
        const letter = lists.getColumn(listColumn).letter;
        const target = sheet.getColumn(i + 1).letter;
        for (let row = 2; row <= 1001; row += 1) {
          sheet.getCell(`${target}${row}`).dataValidation = {
            type: 'list',
            allowBlank: true,
            formulae: [`Lists!$${letter}$1:$${letter}$${labels.length}`],
            showErrorMessage: true,
          };
        }
      }
      return Buffer.from(await workbook.xlsx.writeBuffer());
    },

    async preview(actor, bytes, mapping) {
      const {
        headers,
        data,
        unreadable: lostCells,
      } = await readSheet(bytes, {
        maxRows: options.MaxRows,
        maxUnpackedBytes: options.MaxUnpackedMb * MIB,
      });
      // A map, not an object: a header such as `constructor` or `toString` is a key like any other.
      const used = new Map<string, string>();
      for (const header of headers) {
        if (header === '') continue;
        // Own keys only: a header such as `constructor` or `toString` is not a key of every object.
        const explicit = mapping && Object.hasOwn(mapping, header) ? mapping[header] : undefined;
        const key = explicit !== undefined ? explicit : defaultKeyOf(header);
        if (key && COLUMN_KEYS.has(key)) used.set(header, key);
      }
      const mapped = new Set(used.values());
      const missing = USER_IMPORT_COLUMNS.filter((c) => c.required && !mapped.has(c.key)).map((c) => c.key);
      const columnErrors = missing.map((key) => err(key, ImportErrorCode.ImportColumnMissing));
      const rows = data.map((values, i) => {
        const cells: Record<string, string> = {};
        headers.forEach((header, col) => {
          const key = used.get(header);
          if (key) cells[key] = values[col] ?? '';
        });
        return { index: i + 1, cells };
      });
      const checked = check(rows, await lookups(actor, rows));
      // A cell the workbook holds no value for is that cell's one error (its '' would read as blank or missing).
      for (const { row, column } of lostCells) {
        const key = used.get(headers[column] ?? '');
        const target = checked[row];
        if (!key || !target) continue;
        target.errors = target.errors.filter((e) => e.columnKey !== key);
        target.errors.push(err(key, ImportErrorCode.ImportCellFormatInvalid, { reason: 'unreadable' }));
      }
      return {
        headers,
        mapping: Object.fromEntries(used),
        columns: [...USER_IMPORT_COLUMNS],
        rows: checked,
        total: checked.length,
        errorRows: checked.filter((r) => r.errors.length > 0).length,
        columnErrors,
      };
    },

    validate,

    async errorReport(rows) {
      const ExcelJS = await loadExcel();
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Errors');
      sheet.columns = [
        { header: 'Row', key: '__index', width: 8 },
        ...USER_IMPORT_COLUMNS.map((c) => ({ header: c.header, key: c.key, width: 20 })),
        { header: 'Errors', key: '__errors', width: 60 },
      ];
      for (const row of rows) {
        const values: Record<string, unknown> = { __index: row.index };
        for (const column of USER_IMPORT_COLUMNS)
          values[column.key] = neutralise(String(row.cells?.[column.key] ?? ''));
        // The column keys come from the client's rows: neutralised like every other cell.
        values.__errors = neutralise(
          (row.errors ?? [])
            .map((e) => `${e.columnKey}: ${e.code} ${deps.errors.msgKeyOf(e.code)}`.trim())
            .join('; '),
        );
        sheet.addRow(values);
      }
      return Buffer.from(await workbook.xlsx.writeBuffer());
    },

    async exportNames() {
      const dicts = new Map<string, Map<string, string>>();
      for (const column of USER_IMPORT_COLUMNS) {
        if (!column.dict) continue;
        const labels = new Map<string, string>();
        for (const item of await repos.dicts.enabledItems(column.dict))
          if (!labels.has(item.value)) labels.set(item.value, item.label);
        dicts.set(column.dict, labels);
      }
      return {
        orgs: new Map((await repos.orgs.list()).map((o) => [o.id, o.code])),
        positions: new Map((await repos.positions.page(BIG)).items.map((p) => [p.id, p.code])),
        roles: new Map((await repos.roles.page(BIG)).items.map((r) => [r.id, r.code])),
        dicts,
      };
    },

    /** `again`: this is the second check of the rows, after an account was created between a check and a write. */
    async commit(actor, rows, strategy, commitOptions = {}, again = false): Promise<ImportCommitResult> {
      assertRowCount(rows.length);
      const l = await lookups(actor, rows);
      const checked = check(rows, l);
      const failures: ImportCommitResult['failures'] = [];
      const creates: { user: NewUser; roleIds: number[] }[] = [];
      /** The sheet row of each create, by position. */
      const createdRows: number[] = [];
      const updates: { id: number; patch: UserPatch; roleIds?: number[] }[] = [];
      let skipped = 0;
      for (const row of checked) {
        const existing = l.existing.get(lower((row.cells.account ?? '').normalize('NFKC')));
        const blocking = row.errors.filter((e) => e.code !== ImportErrorCode.ImportDuplicateInDb.code);
        // An account outside the scope is skipped by Skip like any existing one, and fails Overwrite as a
        // taken name (46010): overwriting it would be a write the caller may not make, creating it a duplicate.
        if (existing && l.hidden.has(existing.id) && strategy !== ImportStrategy.Skip) {
          failures.push({ index: row.index, errors: row.errors });
          continue;
        }
        if (existing && strategy === ImportStrategy.Error) {
          failures.push({ index: row.index, errors: row.errors });
          continue;
        }
        if (existing && strategy === ImportStrategy.Skip) {
          // A skipped row is not written, so what would refuse its overwrite does not matter; its own cells do.
          const refusal = l.untouchable.get(existing.id);
          const own = blocking.filter((e) => e !== refusal && e.code !== ErrorCode.OutOfDataScope.code);
          if (own.length > 0) failures.push({ index: row.index, errors: own });
          else skipped += 1;
          continue;
        }
        if (blocking.length > 0) {
          failures.push({ index: row.index, errors: row.errors });
          continue;
        }
        const c = row.cells;
        const fields = {
          realName: c.realName as string,
          nickName: c.nickName || null,
          orgId: l.orgs.get(lower(c.orgCode ?? '')) ?? null,
          positionId: c.positionCode ? (l.positions.get(lower(c.positionCode)) ?? null) : null,
          phone: c.phone || null,
          email: c.email || null,
          gender: c.gender ? Number(l.dicts.get('gender')?.get(lower(c.gender)) ?? 0) : 0,
          enabled: c.enabled ? l.dicts.get('common_status')?.get(lower(c.enabled)) !== '0' : true,
          remark: c.remark || null,
        };
        const roleIds = c.roleCodes
          ? [...new Set(splitCodes(c.roleCodes).map((code) => l.roles.get(lower(code)) as number))]
          : undefined;
        if (existing) updates.push({ id: existing.id, patch: fields, ...(roleIds ? { roleIds } : {}) });
        else {
          createdRows.push(row.index);
          creates.push({
            user: {
              ...fields,
              account: normalizeAccountName(c.account as string),
              password: '',
              createUserId: actor.userId,
            } as NewUser,
            roleIds: roleIds ?? [],
          });
        }
      }
      const total = checked.length;
      if (failures.length > 0)
        return { total, inserted: 0, updated: 0, skipped, failed: failures.length, failures };
      let hash = '';
      const at = deps.now();
      if (creates.length > 0) {
        const configured = deps.config.service.Security.DefaultInitialPassword;
        // The deploy-time password wins; without it the one sent with the commit, held to the policy (§11).
        const initial = configured !== null && configured !== '' ? configured : commitOptions.initialPassword;
        if (initial === undefined || initial === '')
          throw new BusinessError(ImportErrorCode.ImportInitialPasswordUnset);
        if (initial !== configured) assertPassword(initial, await deps.settings.passwordPolicy());
        // Once per commit (contract §10): each account gets its own salt at its first login.
        hash = await hashPassword(initial, deps.config.service.Security.Password.Pbkdf2Iterations);
      }
      for (const create of creates) {
        Object.assign(create.user, {
          password: hash,
          lastPasswordChangeTime: at,
          mustChangePassword: true,
          createTime: at,
        });
      }
      let result: Awaited<ReturnType<typeof repos.users.importBatch>>;
      try {
        result = await repos.users.importBatch({
          creates,
          updates,
          stamp: { userId: actor.userId, at },
          statementTimeoutMs: options.CommandTimeoutSeconds * 1000,
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        // An account the check found free was created meanwhile (the same file committed twice at once, an
        // administrator): the batch rolled back whole. With Skip or Overwrite that account is now an existing one,
        // so the rows are checked and written again, once, as a commit sent now would be (skipped or updated);
        // with Error, or when it happens again, its rows fail as the check would have failed them.
        if (!again && strategy !== ImportStrategy.Error)
          return service.commit(actor, rows, strategy, commitOptions, true);
        const taken = await takenMeanwhile(creates, createdRows);
        if (taken.length === 0) throw error;
        return { total, inserted: 0, updated: 0, skipped, failed: taken.length, failures: taken };
      }
      for (const update of updates) {
        // A row that disables an account signs it out as `PUT /sys/user/{id}/enabled` does: its sessions and
        // cached codes would otherwise outlive the disable until they expire.
        const disabled = update.patch.enabled === false;
        if (disabled) await deps.sessions.revokeUserSessions(update.id, 'user-disabled');
        if (update.roleIds || disabled) await deps.permissions.invalidateUser(update.id);
      }
      return {
        total,
        inserted: result.createdIds.length,
        updated: result.updated,
        skipped,
        failed: 0,
        failures: [],
      };
    },
  } satisfies UserImportService;
  return service;
}
