/**
 * Dialect-neutral row types, one per table, derived from the SQLite schema's `$inferSelect` (camelCase, `Date` for
 * instants, `boolean` for flags, `number` for ids). Every other dialect's rows must equal them exactly
 * (`rows.conformance.ts` fails the type check on any drift), so code above the data layer never sees which
 * database it runs on. A column is declared once, in the schemas; nothing here restates it.
 */
import type * as sqlite from './sqlite/schema.js';

export * from './column-types.js';

/** The row a table selects, spread into a plain object type. */
type RowOf<T extends { $inferSelect: object }> = { [K in keyof T['$inferSelect']]: T['$inferSelect'][K] };

/** `sys_user` */
export type SysUserRow = RowOf<typeof sqlite.sysUser>;
/** `sys_role` */
export type SysRoleRow = RowOf<typeof sqlite.sysRole>;
/** `sys_user_role` */
export type SysUserRoleRow = RowOf<typeof sqlite.sysUserRole>;
/** `sys_role_menu` */
export type SysRoleMenuRow = RowOf<typeof sqlite.sysRoleMenu>;
/** `sys_role_data_scope`: the org list of a Custom (5) data-scope role. */
export type SysRoleDataScopeRow = RowOf<typeof sqlite.sysRoleDataScope>;
/** `sys_menu` */
export type SysMenuRow = RowOf<typeof sqlite.sysMenu>;
/** `sys_org` */
export type SysOrgRow = RowOf<typeof sqlite.sysOrg>;
/** `sys_position` */
export type SysPositionRow = RowOf<typeof sqlite.sysPosition>;
/** `sys_dict_type` */
export type SysDictTypeRow = RowOf<typeof sqlite.sysDictType>;
/** `sys_dict_item` */
export type SysDictItemRow = RowOf<typeof sqlite.sysDictItem>;
/** `sys_config` */
export type SysConfigRow = RowOf<typeof sqlite.sysConfig>;
/** `sys_session`: the source of truth for a login session. */
export type SysSessionRow = RowOf<typeof sqlite.sysSession>;
/** `sys_refresh_token`: only the SHA-256 hex of the token is stored. */
export type SysRefreshTokenRow = RowOf<typeof sqlite.sysRefreshToken>;
/** `sys_password_history` */
export type SysPasswordHistoryRow = RowOf<typeof sqlite.sysPasswordHistory>;
/** `sys_totp_recovery_code` */
export type SysTotpRecoveryCodeRow = RowOf<typeof sqlite.sysTotpRecoveryCode>;
/** `sys_user_external`: an identity at an external OpenID provider bound to a user (unique per provider). */
export type SysUserExternalRow = RowOf<typeof sqlite.sysUserExternal>;
/** `sys_high_sensitivity_permission`: consumer-added high-sensitivity permission codes. */
export type SysHighSensitivityPermissionRow = RowOf<typeof sqlite.sysHighSensitivityPermission>;
/** `sys_op_log` */
export type SysOpLogRow = RowOf<typeof sqlite.sysOpLog>;
/** `sys_login_log` */
export type SysLoginLogRow = RowOf<typeof sqlite.sysLoginLog>;
/** `sys_exception_log` */
export type SysExceptionLogRow = RowOf<typeof sqlite.sysExceptionLog>;
/** `sys_file` */
export type SysFileRow = RowOf<typeof sqlite.sysFile>;
/** `sys_module`: a portal module (app) grouping top-level menus. */
export type SysModuleRow = RowOf<typeof sqlite.sysModule>;
/** `sys_notice` */
export type SysNoticeRow = RowOf<typeof sqlite.sysNotice>;
/** `sys_notice_receiver`: a user a Role/User notice was published to. */
export type SysNoticeReceiverRow = RowOf<typeof sqlite.sysNoticeReceiver>;
/** `sys_notice_read` */
export type SysNoticeReadRow = RowOf<typeof sqlite.sysNoticeRead>;
/** `sys_job` */
export type SysJobRow = RowOf<typeof sqlite.sysJob>;
/** `sys_job_log` */
export type SysJobLogRow = RowOf<typeof sqlite.sysJobLog>;
/** `sys_counter`: a counter the database keeps (triggers), e.g. `sys_user.live`. */
export type SysCounterRow = RowOf<typeof sqlite.sysCounter>;

/** Audit columns of business tables. */
export type AuditFields = Pick<SysUserRow, 'createTime' | 'createUserId' | 'updateTime' | 'updateUserId'>;

/** Soft-delete flag. */
export type SoftDeleteField = Pick<SysUserRow, 'isDelete'>;
