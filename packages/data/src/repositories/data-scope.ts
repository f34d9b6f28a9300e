/**
 * Data scope as the data layer applies it (contract §4): a resolved filter — every row, rows of a set of
 * organisations, and/or the caller's own rows — turned into a WHERE condition over any table that has an
 * organisation column and/or an owner column. Resolving a user's roles into a filter is the security layer's
 * job (`createDataScopeResolver`); this file only applies the result, so consumers can scope their own tables.
 * A table whose rows belong to a user (files by uploader, log rows by operator or account) is scoped through
 * that user's organisation with {@link userScopeCondition}. An empty filter matches nothing (fail closed).
 */
import { type Column, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Tables } from '../tables.js';

/** What a caller may see: all rows, or the union of an org set and the caller's own rows. */
export interface DataScopeFilter {
  /** Every row (scope type 1, or the super admin). */
  readonly all: boolean;
  /** Organisations whose rows are visible (types 2, 3 and 5, united across roles). */
  readonly orgIds: readonly number[];
  /** The user whose own rows are visible (type 4), else null. */
  readonly selfUserId: number | null;
}

/** The filter of the super admin and of "All" roles. */
export const ALL_DATA_SCOPE: DataScopeFilter = Object.freeze({ all: true, orgIds: [], selfUserId: null });

/** The filter of an unresolved caller: nothing is visible. */
export const EMPTY_DATA_SCOPE: DataScopeFilter = Object.freeze({ all: false, orgIds: [], selfUserId: null });

/** Which columns of a table carry its organisation and its owner. */
export interface DataScopeColumns {
  /** The row's organisation (`sys_user.org_id`, a consumer's `org_id`). */
  org?: Column;
  /** The row's owner: the user row itself (`sys_user.id`) or its creator (`create_user_id`). */
  owner?: Column;
}

/** Matches no row on every dialect (SQL Server has no boolean literal). */
const NOTHING = sql`1 = 0`;

/**
 * The WHERE condition of a scope over a table; undefined when every row is in scope.
 * @example db.select().from(t).where(and(eq(t.isDelete, false), dataScopeCondition(scope, { org: t.orgId })))
 */
export function dataScopeCondition(scope: DataScopeFilter, columns: DataScopeColumns): SQL | undefined {
  if (scope.all) return undefined;
  const parts: SQL[] = [];
  if (columns.org && scope.orgIds.length > 0) parts.push(inArray(columns.org, [...scope.orgIds]));
  if (columns.owner && scope.selfUserId !== null) parts.push(eq(columns.owner, scope.selfUserId));
  if (parts.length === 0) return NOTHING;
  return parts.length === 1 ? parts[0] : or(...parts);
}

/** Whether one loaded row is in scope (the in-memory twin of {@link dataScopeCondition}). */
export function isInDataScope(
  scope: DataScopeFilter,
  row: { orgId?: number | null; ownerId?: number | null },
): boolean {
  if (scope.all) return true;
  if (row.orgId != null && scope.orgIds.includes(row.orgId)) return true;
  return scope.selfUserId !== null && row.ownerId != null && row.ownerId === scope.selfUserId;
}

/**
 * The WHERE condition of a scope over a table whose rows belong to a user (`create_user_id`, `operator_id`,
 * `user_id`): the row's user is inside the scope — their organisation is in its set, or they are the caller under
 * Self; undefined when every row is in scope. Deleted users count (their organisation still holds their history);
 * a row with no user is seen by an All scope only. The users are selected inside the statement, never bound as a
 * list of ids, so a scope over any number of users is one subquery (only the scope's own organisations are bound).
 * @example db.select().from(log).where(userScopeCondition(scope, log.userId, tables.sysUser))
 */
export function userScopeCondition(
  scope: DataScopeFilter,
  column: Column,
  users: Tables['sysUser'],
): SQL | undefined {
  if (scope.all) return undefined;
  // Self alone names one user: no subquery needed.
  if (scope.orgIds.length === 0) return scope.selfUserId === null ? NOTHING : eq(column, scope.selfUserId);
  const inside = dataScopeCondition(scope, { org: users.orgId, owner: users.id });
  return sql`${column} in (select ${users.id} from ${users} where ${inside})`;
}
