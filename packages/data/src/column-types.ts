/**
 * The value types of columns with a closed set of values (menu kinds, data scopes, job states, …) and their named
 * constants. The dialect schemas type their columns with them (`$type<…>()`), so every row type derived from a
 * schema (`rows.ts`) carries them.
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

/** Trace ids a folded exception row keeps; beyond them only its count grows (contract §11). */
export const EXCEPTION_TRACE_IDS_MAX = 100;
