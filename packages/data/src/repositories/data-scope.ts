/**
 * Data scope as the data layer applies it (contract §4): a resolved filter — every row, rows of a set of
 * organisations, and/or the caller's own rows — turned into a WHERE condition over any table that has an
 * organisation column and/or an owner column. Resolving a user's roles into a filter is the security layer's
 * job (`createDataScopeResolver`); this file only applies the result, so consumers can scope their own tables.
 * An empty filter matches nothing (fail closed).
 */
import { type Column, eq, inArray, or, type SQL, sql } from 'drizzle-orm';

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
