/**
 * Compile-time proof that every dialect's tables produce exactly the dialect-neutral row types of `rows.ts`
 * (derived from the SQLite schema, so for SQLite it only proves that `Expected` names every table).
 * This module has no runtime content; it is part of the normal build, so a column that drifts in one dialect
 * (type, nullability, a missing or extra property) fails `tsc -b`.
 */
import type * as mssql from './mssql/schema.js';
import type * as mysql from './mysql/schema.js';
import type * as pg from './pg/schema.js';
import type * as rows from './rows.js';
import type * as sqlite from './sqlite/schema.js';

/** Strict type equality (distinguishes `any`, optional and readonly differences). */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Table key → expected neutral row type. Adding a table means adding it here. */
interface Expected {
  sysUser: rows.SysUserRow;
  sysRole: rows.SysRoleRow;
  sysUserRole: rows.SysUserRoleRow;
  sysRoleMenu: rows.SysRoleMenuRow;
  sysRoleDataScope: rows.SysRoleDataScopeRow;
  sysMenu: rows.SysMenuRow;
  sysOrg: rows.SysOrgRow;
  sysPosition: rows.SysPositionRow;
  sysDictType: rows.SysDictTypeRow;
  sysDictItem: rows.SysDictItemRow;
  sysConfig: rows.SysConfigRow;
  sysSession: rows.SysSessionRow;
  sysRefreshToken: rows.SysRefreshTokenRow;
  sysPasswordHistory: rows.SysPasswordHistoryRow;
  sysTotpRecoveryCode: rows.SysTotpRecoveryCodeRow;
  sysUserExternal: rows.SysUserExternalRow;
  sysHighSensitivityPermission: rows.SysHighSensitivityPermissionRow;
  sysOpLog: rows.SysOpLogRow;
  sysLoginLog: rows.SysLoginLogRow;
  sysExceptionLog: rows.SysExceptionLogRow;
  sysFile: rows.SysFileRow;
  sysModule: rows.SysModuleRow;
  sysNotice: rows.SysNoticeRow;
  sysNoticeReceiver: rows.SysNoticeReceiverRow;
  sysNoticeRead: rows.SysNoticeReadRow;
  sysJob: rows.SysJobRow;
  sysJobLog: rows.SysJobLogRow;
  sysCounter: rows.SysCounterRow;
}

/** For each table: `true` when its `$inferSelect` equals the neutral row (the row type itself is spread out
 * into a plain object first, so interface-vs-mapped-type differences do not matter). */
type Conformance<S> = {
  [K in keyof Expected]: K extends keyof S
    ? S[K] extends { $inferSelect: infer R }
      ? Equals<{ [P in keyof R]: R[P] }, { [P in keyof Expected[K]]: Expected[K][P] }>
      : false
    : false;
};

/** Every key of `Expected` is a table of the schema and no schema export is left unchecked. */
type AllTrue<C, S> = [keyof S] extends [keyof C]
  ? C[keyof C] extends true
    ? true
    : C
  : Exclude<keyof S, keyof C>;

type Assert<T extends true> = T;

export type SqliteConforms = Assert<AllTrue<Conformance<typeof sqlite>, typeof sqlite>>;
export type MySqlConforms = Assert<AllTrue<Conformance<typeof mysql>, typeof mysql>>;
export type PgConforms = Assert<AllTrue<Conformance<typeof pg>, typeof pg>>;
export type MsSqlConforms = Assert<AllTrue<Conformance<typeof mssql>, typeof mssql>>;
