/**
 * Dialect-neutral row types: one plain interface per table, camelCase, `Date` for instants, `boolean` for flags,
 * `number` for ids. Every dialect's `$inferSelect` must equal these exactly (`rows.conformance.ts` fails the type
 * check on any drift), so code above the data layer never sees which database it runs on.
 */

/** Menu node kind. */
export type MenuType = 'catalog' | 'menu' | 'button';

/** How a `sys_config` value is parsed. */
export type ConfigValueType = 'string' | 'int' | 'bool' | 'enum';

/** Role data scope: 1 All, 2 own Org, 3 Org and children, 4 Self, 5 Custom org list (contract §4). */
export type DataScope = 1 | 2 | 3 | 4 | 5;

/** Named data-scope values. */
export const DataScope = {
  All: 1,
  Org: 2,
  OrgAndChildren: 3,
  Self: 4,
  Custom: 5,
} as const satisfies Record<string, DataScope>;

/** Refresh-token status (contract §2). */
export type RefreshTokenStatus = 1 | 2 | 3;

/** Named refresh-token statuses. */
export const RefreshTokenStatus = {
  Active: 1,
  Used: 2,
  Revoked: 3,
} as const satisfies Record<string, RefreshTokenStatus>;

/** Audit columns of business tables. */
export interface AuditFields {
  createTime: Date;
  createUserId: number | null;
  updateTime: Date | null;
  updateUserId: number | null;
}

/** Soft-delete flag. */
export interface SoftDeleteField {
  isDelete: boolean;
}

/** `sys_user` */
export interface SysUserRow extends AuditFields, SoftDeleteField {
  id: number;
  account: string;
  realName: string;
  nickName: string | null;
  orgId: number | null;
  positionId: number | null;
  phone: string | null;
  email: string | null;
  gender: number;
  avatar: string | null;
  password: string;
  lastPasswordChangeTime: Date | null;
  mustChangePassword: boolean;
  forceTotp: boolean;
  totpSecret: string | null;
  totpBoundTime: Date | null;
  enabled: boolean;
  isSuperAdmin: boolean;
  lastLoginTime: Date | null;
  lastLoginIp: string | null;
  /** Portal module the user lands in. */
  defaultModuleId: number | null;
  remark: string | null;
  /** Generated: the lower-cased account while live, null once deleted (unique among live rows). */
  accountLive: string | null;
}

/** `sys_role` */
export interface SysRoleRow extends AuditFields, SoftDeleteField {
  id: number;
  name: string;
  code: string;
  dataScope: DataScope;
  sort: number;
  enabled: boolean;
  remark: string | null;
  /** Generated: the lower-cased code while live, null once deleted (unique among live rows). */
  codeLive: string | null;
}

/** `sys_user_role` */
export interface SysUserRoleRow {
  userId: number;
  roleId: number;
}

/** `sys_role_menu` */
export interface SysRoleMenuRow {
  roleId: number;
  menuId: number;
}

/** `sys_role_data_scope`: the org list of a Custom (5) data-scope role. */
export interface SysRoleDataScopeRow {
  roleId: number;
  orgId: number;
}

/** `sys_menu` */
export interface SysMenuRow extends AuditFields, SoftDeleteField {
  id: number;
  parentId: number;
  type: MenuType;
  title: string;
  /** Permission codes joined by `;`. */
  permission: string | null;
  path: string | null;
  component: string | null;
  icon: string | null;
  sort: number;
  enabled: boolean;
  hidden: boolean;
  /** Portal module of a top-level menu. */
  moduleId: number | null;
  remark: string | null;
}

/** `sys_org` */
export interface SysOrgRow extends AuditFields, SoftDeleteField {
  id: number;
  parentId: number;
  name: string;
  code: string;
  sort: number;
  enabled: boolean;
  leader: string | null;
  phone: string | null;
  remark: string | null;
  /** Kept out of the unique index: a duplicate stored before the rule (set by the migration only). */
  liveExempt: boolean;
  /** Generated: the lower-cased code while live, given and not exempt; null otherwise (unique among live rows). */
  codeLive: string | null;
}

/** `sys_position` */
export interface SysPositionRow extends AuditFields, SoftDeleteField {
  id: number;
  name: string;
  code: string;
  sort: number;
  enabled: boolean;
  remark: string | null;
}

/** `sys_dict_type` */
export interface SysDictTypeRow extends AuditFields, SoftDeleteField {
  id: number;
  code: string;
  name: string;
  enabled: boolean;
  remark: string | null;
  /** Generated: the code while live, null once deleted (unique among live rows). */
  codeLive: string | null;
}

/** `sys_dict_item` */
export interface SysDictItemRow extends AuditFields, SoftDeleteField {
  id: number;
  typeId: number;
  typeCode: string;
  label: string;
  value: string;
  sort: number;
  enabled: boolean;
  remark: string | null;
  /** Kept out of the unique index: a duplicate stored before the rule (set by the migration only). */
  liveExempt: boolean;
  /** Generated: the value while live and not exempt, null otherwise (unique within the type among live rows). */
  valueLive: string | null;
}

/** `sys_config` */
export interface SysConfigRow extends AuditFields, SoftDeleteField {
  id: number;
  configKey: string;
  configValue: string;
  valueType: ConfigValueType;
  name: string;
  builtIn: boolean;
  remark: string | null;
  /** Generated: the key while live, null once deleted (unique among live rows). */
  configKeyLive: string | null;
}

/** `sys_session`: the source of truth for a login session. */
export interface SysSessionRow {
  id: string;
  userId: number;
  account: string;
  ip: string | null;
  userAgent: string | null;
  isMfa: boolean;
  createTime: Date;
  lastActivityTime: Date;
  absoluteExpiresAt: Date | null;
  revokedAt: Date | null;
  revokeReason: string | null;
}

/** `sys_refresh_token`: only the SHA-256 hex of the token is stored. */
export interface SysRefreshTokenRow {
  id: number;
  sessionId: string;
  tokenHash: string;
  status: RefreshTokenStatus;
  expiresAt: Date;
  createTime: Date;
  usedTime: Date | null;
}

/** `sys_password_history` */
export interface SysPasswordHistoryRow {
  id: number;
  userId: number;
  passwordHash: string;
  createTime: Date;
}

/** `sys_totp_recovery_code` */
export interface SysTotpRecoveryCodeRow {
  id: number;
  userId: number;
  codeHash: string;
  usedTime: Date | null;
  createTime: Date;
}

/** `sys_user_external`: an identity at an external OpenID provider bound to a user (unique per provider). */
export interface SysUserExternalRow {
  id: number;
  userId: number;
  /** The provider's configured `Code`. */
  provider: string;
  /** The provider's `sub` claim. */
  subject: string;
  displayName: string | null;
  createTime: Date;
}

/** `sys_high_sensitivity_permission`: consumer-added high-sensitivity permission codes. */
export interface SysHighSensitivityPermissionRow extends AuditFields {
  id: number;
  permissionCode: string;
  remark: string | null;
}

/** `sys_op_log` */
export interface SysOpLogRow {
  id: number;
  title: string;
  httpMethod: string;
  path: string;
  paramJson: string | null;
  resultCode: number;
  success: boolean;
  elapsedMs: number;
  operatorId: number | null;
  operatorName: string | null;
  ip: string | null;
  userAgent: string | null;
  traceId: string | null;
  createTime: Date;
}

/** `sys_login_log` */
export interface SysLoginLogRow {
  id: number;
  account: string;
  success: boolean;
  resultCode: number;
  userId: number | null;
  ip: string | null;
  userAgent: string | null;
  /** `X-Trace-Id` of the request that wrote the row; null for rows older than the column. */
  traceId: string | null;
  createTime: Date;
}

/** `sys_exception_log` */
export interface SysExceptionLogRow {
  id: number;
  httpMethod: string;
  path: string;
  traceId: string;
  exceptionType: string;
  message: string;
  stackTrace: string | null;
  /**
   * The trace ids of the identical exceptions a folded row stands for (contract §11), space-separated with a space
   * at either end so that one is found by `LIKE '% id %'`; at most {@link EXCEPTION_TRACE_IDS_MAX}, the count in the
   * message. Null on a row of one exception (its id is `traceId`).
   */
  traceIds: string | null;
  createTime: Date;
}

/** Trace ids a folded exception row keeps; beyond them only its count grows (contract §11). */
export const EXCEPTION_TRACE_IDS_MAX = 100;

/** `sys_file` */
export interface SysFileRow extends AuditFields, SoftDeleteField {
  id: number;
  originalName: string;
  storageKey: string;
  sizeBytes: number;
  contentType: string;
  ext: string;
  sha256: string;
}

/** `sys_module`: a portal module (app) grouping top-level menus. */
export interface SysModuleRow extends AuditFields, SoftDeleteField {
  id: number;
  code: string;
  title: string;
  icon: string | null;
  defaultRoute: string | null;
  /** UI filter only (`sys`, `biz`). */
  apiPrefix: string | null;
  sort: number;
  enabled: boolean;
  remark: string | null;
  /** Generated: the lower-cased code while live, null once deleted (unique among live rows). */
  codeLive: string | null;
}

/** `sys_notice` */
export interface SysNoticeRow extends AuditFields, SoftDeleteField {
  id: number;
  title: string;
  content: string | null;
  type: number;
  receiverType: number;
  actionsJson: string | null;
  publishTime: Date;
}

/** `sys_notice_receiver`: a user a Role/User notice was published to. */
export interface SysNoticeReceiverRow {
  noticeId: number;
  receiverId: number;
}

/** `sys_notice_read` */
export interface SysNoticeReadRow {
  noticeId: number;
  userId: number;
  readTime: Date;
}

/** Job handler kind: 1 compiled (registered in code), 2 HTTP, 3 SQL. */
export type JobHandlerKind = 1 | 2 | 3;
/** Named job handler kinds. */
export const JobHandlerKind = { Compiled: 1, Http: 2, Sql: 3 } as const satisfies Record<
  string,
  JobHandlerKind
>;

/** Job trigger kind: 1 cron with seconds, 2 fixed interval (≥ 5 s), 3 one-shot. */
export type JobTriggerKind = 1 | 2 | 3;
/** Named job trigger kinds. */
export const JobTriggerKind = { Cron: 1, Interval: 2, OneShot: 3 } as const satisfies Record<
  string,
  JobTriggerKind
>;

/** Job status: 1 Ready, 2 Paused, 3 Completed, 4 Panic. */
export type JobStatus = 1 | 2 | 3 | 4;
/** Named job statuses. */
export const JobStatus = { Ready: 1, Paused: 2, Completed: 3, Panic: 4 } as const satisfies Record<
  string,
  JobStatus
>;

/** What a fire found too late does: write a `misfire-skip` row, or run once now (`catch-up`). */
export type JobMisfireStrategy = 'skip' | 'fire-once';
/** A fire while the previous run is still running: `serial-skip` writes a `skipped` row, `parallel` runs both. */
export type JobConcurrencyMode = 'serial-skip' | 'parallel';
/** Why a run started. */
export type JobFireMode = 'schedule' | 'manual' | 'catch-up' | 'misfire-skip';
/** State of a run-log row. */
export type JobRunStatus = 'running' | 'success' | 'failed' | 'timeout' | 'killed' | 'skipped';

/** `sys_job` */
export interface SysJobRow extends AuditFields, SoftDeleteField {
  id: number;
  code: string;
  name: string;
  handlerKind: JobHandlerKind;
  handlerName: string;
  propsJson: string | null;
  triggerKind: JobTriggerKind;
  cronExpression: string | null;
  intervalSeconds: number | null;
  oneShotTime: Date | null;
  startTime: Date | null;
  endTime: Date | null;
  misfireStrategy: JobMisfireStrategy;
  concurrencyMode: JobConcurrencyMode;
  status: JobStatus;
  nextRunTime: Date | null;
  lastRunTime: Date | null;
  numberOfRuns: number;
  numberOfErrors: number;
  consecutiveErrors: number;
  timeoutSeconds: number;
  retryCount: number;
  retryIntervalSeconds: number;
  failAlertThreshold: number;
  alertByNotice: boolean;
  isSystem: boolean;
  remark: string | null;
  /** Generated: the code while live, null once deleted (unique among live rows). */
  codeLive: string | null;
}

/** `sys_job_log` */
export interface SysJobLogRow {
  id: number;
  jobId: number;
  jobName: string;
  fireInstanceId: string;
  retryIndex: number;
  fireMode: JobFireMode;
  scheduledTime: Date;
  startTime: Date;
  endTime: Date | null;
  runStatus: JobRunStatus;
  elapsedMs: number;
  nodeName: string;
  killRequested: boolean;
  messageText: string | null;
  errorText: string | null;
  /** The job id while this is a running attempt of a serial-skip job (unique: one such run per job), else null. */
  serialClaim: number | null;
}

/** `sys_counter`: a counter the database keeps (triggers), e.g. `sys_user.live`. */
export interface SysCounterRow {
  name: string;
  value: number;
}
