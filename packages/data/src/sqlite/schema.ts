/**
 * SQLite tables. This file and its siblings in `mysql/`, `pg/` and `mssql/` declare the same tables with the
 * same property keys and column names; only `columns.ts` differs per dialect. drizzle-kit reads this file to
 * generate `migrations/sqlite`.
 */
import { sql } from 'drizzle-orm';
import { index, primaryKey, sqliteTable as table, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type {
  ConfigValueType,
  DataScope,
  JobConcurrencyMode,
  JobFireMode,
  JobHandlerKind,
  JobMisfireStrategy,
  JobRunStatus,
  JobStatus,
  JobTriggerKind,
  MenuType,
  RefreshTokenStatus,
} from '../column-types.js';
import {
  auditColumns,
  fixedStr,
  flag,
  idColumn,
  instant,
  int16,
  int32,
  int64,
  longText,
  softDeleteColumn,
  str,
} from './columns.js';

export const sysUser = table(
  'sys_user',
  {
    ...idColumn,
    account: str('account', 64).notNull(),
    realName: str('real_name', 64).notNull(),
    nickName: str('nick_name', 64),
    orgId: int64('org_id'),
    positionId: int64('position_id'),
    phone: str('phone', 32),
    email: str('email', 128),
    gender: int16('gender').notNull().default(0),
    avatar: str('avatar', 500),
    password: str('password', 255).notNull(),
    lastPasswordChangeTime: instant('last_password_change_time'),
    mustChangePassword: flag('must_change_password').notNull().default(false),
    forceTotp: flag('force_totp').notNull().default(false),
    totpSecret: longText('totp_secret'),
    totpBoundTime: instant('totp_bound_time'),
    enabled: flag('enabled').notNull().default(true),
    isSuperAdmin: flag('is_super_admin').notNull().default(false),
    lastLoginTime: instant('last_login_time'),
    lastLoginIp: str('last_login_ip', 64),
    /** The portal module the user lands in (`sys_module.id`); null = the first reachable one. */
    defaultModuleId: int64('default_module_id'),
    remark: str('remark', 500),
    ...auditColumns,
    ...softDeleteColumn,
    /** The account folded to lower case while the row is live, NULL once deleted: unique among live rows. */
    accountLive: str('account_live', 64).generatedAlwaysAs(
      sql`case when is_delete = 0 then lower(account) end`,
      { mode: 'virtual' },
    ),
  },
  (t) => [
    index('sys_user_account_idx').on(t.account),
    index('sys_user_org_id_idx').on(t.orgId),
    // The user page (newest first) and its total: live rows in id order, and live rows of one organisation
    // with the enabled filter, in id order, so neither the page nor the count reads the wide table rows.
    index('sys_user_live_idx').on(t.isDelete, t.id),
    index('sys_user_org_live_idx').on(t.orgId, t.isDelete, t.enabled, t.id),
    uniqueIndex('sys_user_account_live_uq').on(t.accountLive),
  ],
);

export const sysRole = table(
  'sys_role',
  {
    ...idColumn,
    name: str('name', 64).notNull(),
    code: str('code', 64).notNull(),
    dataScope: int16('data_scope').$type<DataScope>().notNull().default(1),
    sort: int32('sort').notNull().default(0),
    enabled: flag('enabled').notNull().default(true),
    remark: str('remark', 500),
    ...auditColumns,
    ...softDeleteColumn,
    /** The code folded to lower case while the row is live, NULL once deleted: unique among live rows. */
    codeLive: str('code_live', 64).generatedAlwaysAs(sql`case when is_delete = 0 then lower(code) end`, {
      mode: 'virtual',
    }),
  },
  (t) => [uniqueIndex('sys_role_code_live_uq').on(t.codeLive)],
);

export const sysUserRole = table(
  'sys_user_role',
  {
    userId: int64('user_id').notNull(),
    roleId: int64('role_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index('sys_user_role_role_id_idx').on(t.roleId)],
);

export const sysRoleMenu = table(
  'sys_role_menu',
  {
    roleId: int64('role_id').notNull(),
    menuId: int64('menu_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.menuId] }), index('sys_role_menu_menu_id_idx').on(t.menuId)],
);

export const sysRoleDataScope = table(
  'sys_role_data_scope',
  {
    roleId: int64('role_id').notNull(),
    orgId: int64('org_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.orgId] })],
);

export const sysMenu = table(
  'sys_menu',
  {
    ...idColumn,
    parentId: int64('parent_id').notNull().default(0),
    type: str('type', 16).$type<MenuType>().notNull(),
    title: str('title', 64).notNull(),
    permission: longText('permission'),
    path: str('path', 200),
    component: str('component', 200),
    icon: str('icon', 64),
    sort: int32('sort').notNull().default(0),
    enabled: flag('enabled').notNull().default(true),
    hidden: flag('hidden').notNull().default(false),
    /** Portal module of a top-level menu (`sys_module.id`); children follow their top-level ancestor. */
    moduleId: int64('module_id'),
    remark: str('remark', 500),
    ...auditColumns,
    ...softDeleteColumn,
  },
  (t) => [index('sys_menu_parent_id_idx').on(t.parentId)],
);

export const sysOrg = table(
  'sys_org',
  {
    ...idColumn,
    parentId: int64('parent_id').notNull().default(0),
    name: str('name', 64).notNull(),
    code: str('code', 64).notNull(),
    sort: int32('sort').notNull().default(0),
    enabled: flag('enabled').notNull().default(true),
    leader: str('leader', 64),
    phone: str('phone', 32),
    remark: str('remark', 500),
    ...auditColumns,
    ...softDeleteColumn,
    /**
     * Set on a row stored before the rule whose key an older live row already held: it stays, outside the
     * unique index, until it is edited or restored (the migration sets it; new rows never do).
     */
    liveExempt: flag('live_exempt').notNull().default(false),
    /** The code (lower-cased) while the row is live, given and not exempt; NULL otherwise. */
    codeLive: str('code_live', 64).generatedAlwaysAs(
      sql`case when is_delete = 0 and live_exempt = 0 and code <> '' then lower(code) end`,
      { mode: 'virtual' },
    ),
  },
  (t) => [index('sys_org_parent_id_idx').on(t.parentId), uniqueIndex('sys_org_code_live_uq').on(t.codeLive)],
);

export const sysPosition = table('sys_position', {
  ...idColumn,
  name: str('name', 64).notNull(),
  code: str('code', 64).notNull(),
  sort: int32('sort').notNull().default(0),
  enabled: flag('enabled').notNull().default(true),
  remark: str('remark', 500),
  ...auditColumns,
  ...softDeleteColumn,
});

export const sysDictType = table(
  'sys_dict_type',
  {
    ...idColumn,
    code: str('code', 64).notNull(),
    name: str('name', 64).notNull(),
    enabled: flag('enabled').notNull().default(true),
    remark: str('remark', 500),
    ...auditColumns,
    ...softDeleteColumn,
    /** The code while the row is live (compared as the column's collation does), NULL once deleted. */
    codeLive: str('code_live', 64).generatedAlwaysAs(sql`case when is_delete = 0 then code end`, {
      mode: 'virtual',
    }),
  },
  (t) => [
    index('sys_dict_type_code_idx').on(t.code),
    uniqueIndex('sys_dict_type_code_live_uq').on(t.codeLive),
  ],
);

export const sysDictItem = table(
  'sys_dict_item',
  {
    ...idColumn,
    typeId: int64('type_id').notNull(),
    typeCode: str('type_code', 64).notNull(),
    label: str('label', 128).notNull(),
    value: str('value', 128).notNull(),
    sort: int32('sort').notNull().default(0),
    enabled: flag('enabled').notNull().default(true),
    remark: str('remark', 500),
    ...auditColumns,
    ...softDeleteColumn,
    /**
     * Set on a row stored before the rule whose key an older live row already held: it stays, outside the
     * unique index, until it is edited or restored (the migration sets it; new rows never do).
     */
    liveExempt: flag('live_exempt').notNull().default(false),
    /** The value while the row is live and not exempt, NULL otherwise: unique within its type. */
    valueLive: str('value_live', 128).generatedAlwaysAs(
      sql`case when is_delete = 0 and live_exempt = 0 then value end`,
      { mode: 'virtual' },
    ),
  },
  (t) => [
    index('sys_dict_item_type_code_idx').on(t.typeCode),
    index('sys_dict_item_type_id_idx').on(t.typeId),
    uniqueIndex('sys_dict_item_value_live_uq').on(t.typeId, t.valueLive),
  ],
);

export const sysConfig = table(
  'sys_config',
  {
    ...idColumn,
    configKey: str('config_key', 128).notNull(),
    configValue: longText('config_value').notNull(),
    valueType: str('value_type', 16).$type<ConfigValueType>().notNull().default('string'),
    name: str('name', 128).notNull(),
    builtIn: flag('built_in').notNull().default(false),
    remark: str('remark', 500),
    ...auditColumns,
    ...softDeleteColumn,
    /** The key while the row is live, NULL once deleted (the recycle bin keeps deleted rows). */
    configKeyLive: str('config_key_live', 128).generatedAlwaysAs(
      sql`case when is_delete = 0 then config_key end`,
      {
        mode: 'stored',
      },
    ),
  },
  (t) => [
    index('sys_config_config_key_idx').on(t.configKey),
    uniqueIndex('sys_config_config_key_live_uq').on(t.configKeyLive),
  ],
);

export const sysSession = table(
  'sys_session',
  {
    id: str('id', 36).primaryKey(),
    userId: int64('user_id').notNull(),
    account: str('account', 64).notNull(),
    ip: str('ip', 64),
    userAgent: str('user_agent', 500),
    isMfa: flag('is_mfa').notNull().default(false),
    createTime: instant('create_time').notNull(),
    lastActivityTime: instant('last_activity_time').notNull(),
    absoluteExpiresAt: instant('absolute_expires_at'),
    revokedAt: instant('revoked_at'),
    revokeReason: str('revoke_reason', 64),
  },
  (t) => [index('sys_session_user_id_idx').on(t.userId)],
);

export const sysRefreshToken = table(
  'sys_refresh_token',
  {
    ...idColumn,
    sessionId: str('session_id', 36).notNull(),
    tokenHash: fixedStr('token_hash', 64).notNull(),
    status: int16('status').$type<RefreshTokenStatus>().notNull(),
    expiresAt: instant('expires_at').notNull(),
    createTime: instant('create_time').notNull(),
    usedTime: instant('used_time'),
  },
  (t) => [
    uniqueIndex('sys_refresh_token_token_hash_uq').on(t.tokenHash),
    index('sys_refresh_token_session_id_idx').on(t.sessionId),
  ],
);

export const sysPasswordHistory = table(
  'sys_password_history',
  {
    ...idColumn,
    userId: int64('user_id').notNull(),
    passwordHash: str('password_hash', 255).notNull(),
    createTime: instant('create_time').notNull(),
  },
  (t) => [index('sys_password_history_user_id_idx').on(t.userId)],
);

export const sysTotpRecoveryCode = table(
  'sys_totp_recovery_code',
  {
    ...idColumn,
    userId: int64('user_id').notNull(),
    codeHash: str('code_hash', 255).notNull(),
    usedTime: instant('used_time'),
    createTime: instant('create_time').notNull(),
  },
  (t) => [index('sys_totp_recovery_code_user_id_idx').on(t.userId)],
);

export const sysUserExternal = table(
  'sys_user_external',
  {
    ...idColumn,
    userId: int64('user_id').notNull(),
    provider: str('provider', 64).notNull(),
    subject: str('subject', 255).notNull(),
    displayName: str('display_name', 128),
    createTime: instant('create_time').notNull(),
  },
  (t) => [
    uniqueIndex('sys_user_external_provider_subject_uq').on(t.provider, t.subject),
    index('sys_user_external_user_id_idx').on(t.userId),
  ],
);

export const sysHighSensitivityPermission = table(
  'sys_high_sensitivity_permission',
  {
    ...idColumn,
    permissionCode: str('permission_code', 200).notNull(),
    remark: str('remark', 500),
    ...auditColumns,
  },
  (t) => [uniqueIndex('sys_high_sensitivity_permission_code_uq').on(t.permissionCode)],
);

export const sysOpLog = table(
  'sys_op_log',
  {
    ...idColumn,
    title: str('title', 128).notNull(),
    httpMethod: str('http_method', 16).notNull(),
    path: str('path', 500).notNull(),
    paramJson: longText('param_json'),
    resultCode: int32('result_code').notNull(),
    success: flag('success').notNull(),
    elapsedMs: int32('elapsed_ms').notNull(),
    operatorId: int64('operator_id'),
    operatorName: str('operator_name', 64),
    ip: str('ip', 64),
    userAgent: str('user_agent', 500),
    traceId: str('trace_id', 64),
    createTime: instant('create_time').notNull(),
  },
  (t) => [
    index('sys_op_log_create_time_idx').on(t.createTime),
    // No index on trace_id: a spill replay looks its rows up within their time span (create_time).
  ],
);

export const sysLoginLog = table(
  'sys_login_log',
  {
    ...idColumn,
    account: str('account', 128).notNull(),
    success: flag('success').notNull(),
    resultCode: int32('result_code').notNull(),
    userId: int64('user_id'),
    ip: str('ip', 64),
    userAgent: str('user_agent', 500),
    traceId: str('trace_id', 64),
    /** How the attempt proved itself (`LOGIN_METHODS`); null on rows written before the column and on security events. */
    method: str('method', 16),
    createTime: instant('create_time').notNull(),
  },
  (t) => [index('sys_login_log_create_time_idx').on(t.createTime)],
);

export const sysExceptionLog = table(
  'sys_exception_log',
  {
    ...idColumn,
    httpMethod: str('http_method', 16).notNull(),
    path: str('path', 500).notNull(),
    traceId: str('trace_id', 64).notNull(),
    exceptionType: str('exception_type', 256).notNull(),
    message: str('message', 2000).notNull(),
    stackTrace: longText('stack_trace'),
    /** The trace ids a folded row stands for (` id1 id2 … `, up to 100); null on a row of one exception. */
    traceIds: longText('trace_ids'),
    createTime: instant('create_time').notNull(),
  },
  (t) => [index('sys_exception_log_create_time_idx').on(t.createTime)],
);

export const sysFile = table(
  'sys_file',
  {
    ...idColumn,
    originalName: str('original_name', 255).notNull(),
    storageKey: str('storage_key', 255).notNull(),
    sizeBytes: int64('size_bytes').notNull(),
    contentType: str('content_type', 128).notNull(),
    ext: str('ext', 32).notNull(),
    sha256: fixedStr('sha256', 64).notNull(),
    ...auditColumns,
    ...softDeleteColumn,
  },
  (t) => [index('sys_file_storage_key_idx').on(t.storageKey), index('sys_file_sha256_idx').on(t.sha256)],
);

/** Portal modules (apps): each groups top-level menus; `system` is built in and protected. */
export const sysModule = table(
  'sys_module',
  {
    ...idColumn,
    code: str('code', 64).notNull(),
    title: str('title', 64).notNull(),
    icon: str('icon', 64),
    defaultRoute: str('default_route', 200),
    apiPrefix: str('api_prefix', 64),
    sort: int32('sort').notNull().default(0),
    enabled: flag('enabled').notNull().default(true),
    remark: str('remark', 500),
    ...auditColumns,
    ...softDeleteColumn,
    /** The code folded to lower case while the row is live, NULL once deleted: unique among live rows. */
    codeLive: str('code_live', 64).generatedAlwaysAs(sql`case when is_delete = 0 then lower(code) end`, {
      mode: 'virtual',
    }),
  },
  (t) => [uniqueIndex('sys_module_code_live_uq').on(t.codeLive)],
);

/** Notices (module `Notice`): `type` 1 Notice, 2 Announcement, 3 Message; `receiverType` 0 All, 1 Role, 2 User. */
export const sysNotice = table(
  'sys_notice',
  {
    ...idColumn,
    title: str('title', 128).notNull(),
    content: str('content', 2000),
    type: int16('type').notNull(),
    receiverType: int16('receiver_type').notNull(),
    actionsJson: longText('actions_json'),
    publishTime: instant('publish_time').notNull(),
    ...auditColumns,
    ...softDeleteColumn,
  },
  // Live "all" notices are counted per user without per-user rows: (is_delete, receiver_type, id).
  (t) => [index('sys_notice_live_kind_idx').on(t.isDelete, t.receiverType, t.id)],
);

/** Who a Role/User notice reaches: user ids resolved at publish time (a role's members then). */
export const sysNoticeReceiver = table(
  'sys_notice_receiver',
  {
    noticeId: int64('notice_id').notNull(),
    receiverId: int64('receiver_id').notNull(),
  },
  // The primary key serves the delete fan-out (by notice); the index serves one user's inbox and unread count.
  (t) => [
    primaryKey({ columns: [t.noticeId, t.receiverId] }),
    index('sys_notice_receiver_receiver_idx').on(t.receiverId, t.noticeId),
  ],
);

/** Read state, one row per user and notice read (also for "all" notices). */
export const sysNoticeRead = table(
  'sys_notice_read',
  {
    noticeId: int64('notice_id').notNull(),
    userId: int64('user_id').notNull(),
    readTime: instant('read_time').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.noticeId, t.userId] }),
    index('sys_notice_read_user_idx').on(t.userId, t.noticeId),
  ],
);

/** Scheduled jobs (module `Job`); the code is immutable and unique among live rows. */
export const sysJob = table(
  'sys_job',
  {
    ...idColumn,
    code: str('code', 64).notNull(),
    name: str('name', 128).notNull(),
    handlerKind: int16('handler_kind').$type<JobHandlerKind>().notNull(),
    handlerName: str('handler_name', 128).notNull(),
    propsJson: longText('props_json'),
    triggerKind: int16('trigger_kind').$type<JobTriggerKind>().notNull(),
    cronExpression: str('cron_expression', 128),
    intervalSeconds: int32('interval_seconds'),
    oneShotTime: instant('one_shot_time'),
    startTime: instant('start_time'),
    endTime: instant('end_time'),
    misfireStrategy: str('misfire_strategy', 16).$type<JobMisfireStrategy>().notNull().default('skip'),
    concurrencyMode: str('concurrency_mode', 16).$type<JobConcurrencyMode>().notNull().default('serial-skip'),
    status: int16('status').$type<JobStatus>().notNull().default(1),
    nextRunTime: instant('next_run_time'),
    lastRunTime: instant('last_run_time'),
    numberOfRuns: int32('number_of_runs').notNull().default(0),
    numberOfErrors: int32('number_of_errors').notNull().default(0),
    consecutiveErrors: int32('consecutive_errors').notNull().default(0),
    timeoutSeconds: int32('timeout_seconds').notNull().default(0),
    retryCount: int32('retry_count').notNull().default(0),
    retryIntervalSeconds: int32('retry_interval_seconds').notNull().default(0),
    failAlertThreshold: int32('fail_alert_threshold').notNull().default(0),
    alertByNotice: flag('alert_by_notice').notNull().default(false),
    isSystem: flag('is_system').notNull().default(false),
    remark: str('remark', 500),
    ...auditColumns,
    ...softDeleteColumn,
    /** The code while the row is live, NULL once deleted. */
    codeLive: str('code_live', 64).generatedAlwaysAs(sql`case when is_delete = 0 then code end`, {
      mode: 'virtual',
    }),
  },
  (t) => [index('sys_job_code_idx').on(t.code), uniqueIndex('sys_job_code_live_uq').on(t.codeLive)],
);

/**
 * One attempt of one fire of a job. `fireInstanceId` names the fire (job and scheduled time, or a manual run)
 * and is unique with `retryIndex`: a fire that two instances pick up writes one row, never two.
 */
export const sysJobLog = table(
  'sys_job_log',
  {
    ...idColumn,
    jobId: int64('job_id').notNull(),
    jobName: str('job_name', 128).notNull(),
    fireInstanceId: str('fire_instance_id', 96).notNull(),
    retryIndex: int32('retry_index').notNull().default(0),
    fireMode: str('fire_mode', 16).$type<JobFireMode>().notNull(),
    scheduledTime: instant('scheduled_time').notNull(),
    startTime: instant('start_time').notNull(),
    endTime: instant('end_time'),
    runStatus: str('run_status', 16).$type<JobRunStatus>().notNull(),
    elapsedMs: int32('elapsed_ms').notNull().default(0),
    nodeName: str('node_name', 128).notNull(),
    killRequested: flag('kill_requested').notNull().default(false),
    messageText: longText('message_text'),
    errorText: longText('error_text'),
    /**
     * The job id while this row is a running attempt of a serial-skip job, else null. Unique: of two attempts
     * of one serial job started at once (two instances, two run-now requests), one insert wins.
     */
    serialClaim: int64('serial_claim'),
  },
  (t) => [
    uniqueIndex('sys_job_log_fire_uq').on(t.fireInstanceId, t.retryIndex),
    uniqueIndex('sys_job_log_serial_claim_uq').on(t.serialClaim),
    index('sys_job_log_job_id_idx').on(t.jobId, t.id),
    // Running rows of a job (the parallel cap's count under the job row's lock, serial-skip's count).
    index('sys_job_log_job_status_idx').on(t.jobId, t.runStatus),
    index('sys_job_log_start_time_idx').on(t.startTime),
  ],
);

/**
 * Counters kept exact by the database itself: triggers on the counted table adjust the row in the same
 * transaction as the write, whoever writes (repositories, imports, a DBA's SQL). `sys_user.live` is the number of
 * live (not soft-deleted) users, the total of the unfiltered user page, read in constant time (issue 16).
 */
export const sysCounter = table('sys_counter', {
  name: str('name', 64).primaryKey(),
  value: int64('value').notNull().default(0),
});
