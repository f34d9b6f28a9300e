/**
 * Tens of thousands of users in a test's setup: multi-row inserts of {@link USERS_PER_INSERT} rows, then their
 * role links the same way, so a test reaches sizes past the dialects' parameter limits in seconds.
 */
import { asc, like } from 'drizzle-orm';
import type { Database } from '../database.js';

/**
 * Users per INSERT. A row binds 11 values on SQLite (drizzle binds the column defaults too), so 1,000 rows stay
 * under SQLite's 32,766 parameters; PostgreSQL binds fewer (`default` for a column given no value) and mysql2
 * sends text. Too many for SQL Server (2,100 parameters), which has no test server here.
 */
const USERS_PER_INSERT = 1_000;
/** Role links per INSERT: two values a row, 10,000 a statement. */
const LINKS_PER_INSERT = 5_000;

/** What {@link insertUsersInBulk} makes. */
export interface BulkUsers {
  /** How many. */
  count: number;
  /** Accounts are `${prefix}${i}`: pick a prefix no other account of the test starts with (no `_` or `%`). */
  prefix: string;
  /** Organisation of every user. @default 1 */
  orgId?: number | null;
  /** Roles every user holds. @default none */
  roleIds?: readonly number[];
}

/**
 * Inserts `count` live users (password hash `'h'`, so nobody can sign in as them) with their role links and
 * answers their ids, ascending.
 * @example const ids = await insertUsersInBulk(database, { count: 70_000, prefix: 'crowd-', roleIds: [roleId] });
 */
export async function insertUsersInBulk(
  database: Pick<Database, 'db' | 'tables'>,
  users: BulkUsers,
): Promise<number[]> {
  const { db, tables } = database;
  const u = tables.sysUser;
  const orgId = users.orgId === undefined ? 1 : users.orgId;
  for (let i = 0; i < users.count; i += USERS_PER_INSERT) {
    const rows = [];
    for (let j = i; j < Math.min(users.count, i + USERS_PER_INSERT); j++)
      rows.push({ account: `${users.prefix}${j}`, realName: `${users.prefix}${j}`, password: 'h', orgId });
    await db.insert(u).values(rows);
  }
  // Not every dialect answers the ids of a multi-row insert: they are read back by the test's account prefix.
  const ids = (
    await db
      .select({ id: u.id })
      .from(u)
      .where(like(u.account, `${users.prefix}%`))
      .orderBy(asc(u.id))
  ).map((r) => r.id);
  if (ids.length !== users.count) throw new Error(`expected ${users.count} users, found ${ids.length}`);
  const links = (users.roleIds ?? []).flatMap((roleId) => ids.map((userId) => ({ userId, roleId })));
  for (let i = 0; i < links.length; i += LINKS_PER_INSERT)
    await db.insert(tables.sysUserRole).values(links.slice(i, i + LINKS_PER_INSERT));
  return ids;
}
