/**
 * SQL Server has no server in this project's test run, so its dialect is verified here: the committed
 * migration creates every table with the intended types, and the repositories (the same code that runs on the
 * other dialects) produce SQL Server's forms (OFFSET … FETCH after ORDER BY, OUTPUT INSERTED INTO) when driven
 * through drizzle's node-mssql session over a recording fake client.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getTableColumns, getTableName, sql, type Table } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-mssql';
import { describe, expect, it } from 'vitest';
import type { Database } from '../database.js';
import type { QueryDb } from '../dialect.js';
import { migrationsPath } from '../migrate.js';
import { ALL_DATA_SCOPE } from '../repositories/data-scope.js';
import { createRepositories } from '../repositories/index.js';
import type { Tables } from '../tables.js';
import { dialect } from './index.js';
import * as schema from './schema.js';

/** Every `migration.sql` of the dialect, in order, concatenated. */
function migrationSql(folder: string): string {
  const root = migrationsPath(folder);
  return readdirSync(root)
    .sort()
    .map((dir) => readFileSync(join(root, dir, 'migration.sql'), 'utf8'))
    .join('\n');
}

/** `CREATE TABLE [name] ( … );` blocks by table name. */
function createTableBlocks(sql: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const match of sql.matchAll(/CREATE TABLE \[(\w+)\] \(([\s\S]*?)\n\);/g)) {
    blocks.set(match[1] ?? '', match[2] ?? '');
  }
  // Columns added by later migrations (`ALTER TABLE [t] ADD [c] type;`) belong to the table's block too.
  for (const match of sql.matchAll(/ALTER TABLE \[(\w+)\] ADD (\[\w+\][^;]*);/g)) {
    const table = match[1] ?? '';
    blocks.set(table, `${blocks.get(table) ?? ''}\n\t${match[2] ?? ''}`);
  }
  return blocks;
}

describe('SQL Server migration', () => {
  const sql = migrationSql('mssql');
  const blocks = createTableBlocks(sql);
  const tables = Object.values(schema) as Table[];

  it('creates every table of the schema, and only those', () => {
    expect([...blocks.keys()].sort()).toEqual(tables.map((t) => getTableName(t)).sort());
  });

  it('creates every column with SQL Server types: identity ids, NVARCHAR text, BIT flags, datetime2(3)', () => {
    for (const table of tables) {
      const block = blocks.get(getTableName(table)) ?? '';
      for (const column of Object.values(getTableColumns(table))) {
        // Columns added by a later migration appear as `ALTER TABLE [t] ADD [c] …`.
        const line =
          block.split('\n').find((l) => l.trim().startsWith(`[${column.name}] `)) ??
          sql
            .split('\n')
            .find((l) => l.startsWith(`ALTER TABLE [${getTableName(table)}] ADD [${column.name}] `));
        expect(line, `${getTableName(table)}.${column.name}`).toBeDefined();
        // A computed column takes its type from its expression.
        if (column.generated) {
          expect(line).toMatch(/ AS \(.*\) PERSISTED/);
          continue;
        }
        if (column.name === 'id' && getTableName(table) !== 'sys_session')
          expect(line).toContain('bigint IDENTITY(1, 1)');
        if (column.columnType === 'MsSqlBit') expect(line).toMatch(/ bit( |,|$)/);
        if (column.columnType === 'MsSqlDateTime2') expect(line).toContain('datetime2(3)');
        if (column.columnType === 'MsSqlVarChar') expect(line).toMatch(/ nvarchar\((\d+|max)\)/);
        // Primary-key columns are NOT NULL through the constraint (SQL Server implies it for PRIMARY KEY).
        const inPrimaryKey = new RegExp(`PRIMARY KEY\\([^)]*\\[${column.name}\\]`).test(block);
        if (column.notNull && !inPrimaryKey) expect(line).toContain('NOT NULL');
      }
    }
    expect(sql).toContain('CREATE UNIQUE INDEX [sys_config_config_key_uq] ON [sys_config] ([config_key])');
    expect(sql).toContain('CREATE INDEX [sys_user_account_idx] ON [sys_user] ([account])');
  });
});

/** What the stand-in answers to a request: the rows of its one result set, or every result set of a batch. */
type Reply = Record<string, unknown>[] | { recordsets: Record<string, unknown>[][] };

/**
 * A node-mssql stand-in that records each statement (`begin`/`commit`/`rollback` of a transaction too) and
 * answers from `reply`, as node-mssql does: every result set in `recordsets`, the first also as `recordset`.
 */
function recordingDatabase(reply: (sql: string, params: unknown[]) => Reply) {
  const statements: Array<{ sql: string; params: unknown[] }> = [];
  const mark = (sql: string) => async () => {
    statements.push({ sql, params: [] });
  };
  const client = {
    request() {
      const params: unknown[] = [];
      return {
        /** Set by drizzle for selects: rows are then value arrays in select-list order. */
        arrayRowMode: false,
        input(_name: string, typeOrValue: unknown, value?: unknown) {
          params.push(value === undefined ? typeOrValue : value);
          return this;
        },
        async query(text: string) {
          statements.push({ sql: text, params });
          const answer = reply(text, params);
          const recordsets = (Array.isArray(answer) ? [answer] : answer.recordsets).map((rows) =>
            this.arrayRowMode ? rows.map((r) => Object.values(r)) : rows,
          );
          return { recordsets, recordset: recordsets[0], rowsAffected: [1] };
        },
      };
    },
    transaction() {
      return {
        request: client.request,
        begin: mark('begin'),
        commit: mark('commit'),
        rollback: mark('rollback'),
      };
    },
  };
  const db = drizzle({ client: client as never }) as unknown as QueryDb;
  const database = { db, adapter: dialect.adapter, tables: dialect.tables as Tables } as Database;
  return { database, statements };
}

describe('SQL Server queries from the shared repositories', () => {
  it('pages with ORDER BY … OFFSET … ROWS FETCH NEXT … ROWS ONLY', async () => {
    const { database, statements } = recordingDatabase((sql) =>
      sql.includes('count(') ? [{ total: 45 }] : [],
    );
    const page = await createRepositories(database).exceptionLogs.page({ current: 3, size: 10 });
    expect(page).toMatchObject({ current: 3, size: 10, total: 45, pages: 5, items: [] });
    const select = statements[1];
    expect(select?.sql).toMatch(
      /order by \[sys_exception_log\]\.\[create_time\] desc, \[sys_exception_log\]\.\[id\] desc offset @par\d+ rows fetch next @par\d+ rows only$/,
    );
    expect(select?.params.slice(-2)).toEqual([20, 10]);
  });

  it("escapes the bracket wildcard of SQL Server's LIKE in list filters and the trace-id filter", async () => {
    // `[ops]` is a character class in SQL Server's LIKE: unescaped, a filter for "Ann [ops]" matched any name
    // holding an o, p or s, and `[0-f]…` matched every folded trace id.
    const { database, statements } = recordingDatabase((sql) =>
      sql.includes('count(') ? [{ total: 0 }] : [],
    );
    const repos = createRepositories(database);
    await repos.users.page({ current: 1, size: 10, name: 'Ann [ops]' }, ALL_DATA_SCOPE);
    await repos.exceptionLogs.page({ current: 1, size: 10, traceId: '[0-f]1' });
    const params = statements.flatMap((s) => s.params);
    expect(params).toContain('%Ann ![ops]%');
    expect(params).toContain('% ![0-f]1 %');
    expect(statements.every((s) => !/like @par\d+(?! escape '!')/.test(s.sql))).toBe(true);
  });

  it('answers a new id through OUTPUT INSERTED INTO a table variable, read from the last result set', async () => {
    // An earlier result set (a trigger may answer rows) must not be taken for the select's; node-mssql answers a
    // bigint as a string.
    const { database, statements } = recordingDatabase(() => ({ recordsets: [[{ id: 7 }], [{ id: '42' }]] }));
    const id = await createRepositories(database).exceptionLogs.insert({
      httpMethod: 'GET',
      path: '/x',
      traceId: 't',
      exceptionType: 'Error',
      message: "it's boom",
    });
    expect(id).toBe(42);
    expect(statements).toHaveLength(1);
    const batch = statements[0]?.sql ?? '';
    expect(batch).toMatch(
      /^declare @inserted table \(\[id\] bigint null\); insert into \[sys_exception_log\] \(.*\) output inserted\.\[id\] into @inserted \(\[id\]\) values \(@par0, .*\); select \[id\] from @inserted$/,
    );
    // Values are bound, never written into the text.
    expect(statements[0]?.params).toEqual(expect.arrayContaining(['GET', '/x', 't', 'Error', "it's boom"]));
    expect(batch).not.toContain('boom');
  });

  it('creates a user (sys_user has the live-user trigger) through OUTPUT INTO, not a bare OUTPUT', async () => {
    // A bare OUTPUT on a table with an enabled trigger is SQL Server's error 334.
    expect(migrationSql('mssql')).toMatch(
      /CREATE TRIGGER \[sys_user_live_count\] ON \[sys_user\] AFTER INSERT/,
    );
    const { database, statements } = recordingDatabase(() => ({ recordsets: [[{ id: '5' }]] }));
    expect(
      await createRepositories(database).users.insert({ account: 'ann', realName: 'Ann', password: 'h' }),
    ).toBe(5);
    const batch = statements[0]?.sql ?? '';
    expect(batch).toMatch(/^declare @inserted table \(\[id\] bigint null\); insert into \[sys_user\] /);
    expect(batch).toContain(' output inserted.[id] into @inserted ([id]) values (@par0, ');
    expect(batch).not.toMatch(/output inserted\.\[id\] values/i);
    expect(statements[0]?.params.slice(0, 2)).toEqual(['ann', 'Ann']);
  });

  it('inserts many rows with OUTPUT INTO, typed as the columns, and answers them from the last result set', async () => {
    const { database, statements } = recordingDatabase(() => ({
      recordsets: [
        [{ id: '1', account: 'stale' }],
        [
          { id: '12', account: "o'neil" },
          { id: '11', account: 'ann' },
        ],
      ],
    }));
    const { adapter, db, tables } = database;
    const t = tables.sysUser;
    const rows = [
      { account: 'ann', realName: 'Ann', password: 'h' },
      { account: "o'neil", realName: 'Neil', password: 'h' },
    ];
    const answered = await adapter.insertReturning(db, t, rows, { id: t.id, account: t.account }, sql`1 = 1`);
    expect(answered).toEqual([
      { id: 12, account: "o'neil" },
      { id: 11, account: 'ann' },
    ]);
    const batch = statements[0]?.sql ?? '';
    expect(batch).toMatch(
      /^declare @inserted table \(\[id\] bigint null, \[account\] nvarchar\(64\) null\); insert into \[sys_user\] \(.*\) output inserted\.\[id\], inserted\.\[account\] into @inserted \(\[id\], \[account\]\) values \(@par0, .*\), \(@par\d+, .*\); select \[id\], \[account\] from @inserted$/,
    );
    expect(batch).not.toContain("o'neil");
    expect(statements[0]?.params).toEqual(expect.arrayContaining(['ann', 'Ann', "o'neil", 'Neil']));
  });

  it('imports new users with the ids the batch answered, matched by account', async () => {
    const { database, statements } = recordingDatabase((text, params) => {
      if (!text.startsWith('declare @inserted')) return [];
      // Answered in reverse VALUES order, as no dialect promises it.
      const accounts = params.filter((p): p is string => typeof p === 'string' && p.startsWith('user-'));
      return { recordsets: [accounts.map((account, i) => ({ id: String(100 + i), account })).reverse()] };
    });
    const creates = ['user-a', 'user-b', 'user-c'].map((account) => ({
      user: { account, realName: 'Imported', password: 'h' },
      roleIds: [],
    }));
    const { createdIds } = await createRepositories(database).users.importBatch({
      creates,
      updates: [],
      stamp: { userId: 1, at: new Date(0) },
    });
    expect(createdIds).toEqual([100, 101, 102]);
    expect(statements.filter((s) => s.sql.startsWith('declare @inserted'))).toHaveLength(1);
  });

  it('refuses a field that is not a column of the table: the table variable takes its type from the column', async () => {
    const { database, statements } = recordingDatabase(() => []);
    const { adapter, db, tables } = database;
    const row = [{ account: 'ann', realName: 'Ann', password: 'h' }];
    await expect(
      adapter.insertReturning(db, tables.sysUser, row, { id: tables.sysRole.id }, sql`1 = 1`),
    ).rejects.toThrow(/not a column of the table/);
    await expect(
      adapter.insertReturning(db, tables.sysUser, row, { n: sql<number>`1` }, sql`1 = 1`),
    ).rejects.toThrow(/not a column of the table/);
    expect(statements).toEqual([]);
  });

  it('finds a user by account with lower() on both sides and a one-row page', async () => {
    const { database, statements } = recordingDatabase(() => []);
    expect(await createRepositories(database).users.findByAccount(' Admin ')).toBeUndefined();
    expect(statements[0]?.sql).toContain('lower([sys_user].[account]) = lower(@par0)');
    expect(statements[0]?.sql).toMatch(/offset @par\d+ rows fetch next @par\d+ rows only$/);
    expect(statements[0]?.params[0]).toBe('Admin');
  });

  it('inserts explicit ids between IDENTITY_INSERT on and off, naming the id column', async () => {
    const { database, statements } = recordingDatabase(() => []);
    const { adapter, db, tables } = database;
    await adapter.insertWithIds(db, tables.sysMenu, [{ id: 100, type: 'menu', title: 'Users' }]);
    expect(statements.map((s) => s.sql)).toEqual([
      'set identity_insert [sys_menu] on',
      expect.stringMatching(/^insert into \[sys_menu\] \(\[id\], \[parent_id\], /),
      'set identity_insert [sys_menu] off',
    ]);
    expect(statements[1]?.params[0]).toBe(100);
  });

  it('skips existing keys with IF NOT EXISTS under UPDLOCK, HOLDLOCK and counts inserted rows', async () => {
    const { database, statements } = recordingDatabase(() => []);
    const { adapter, db, tables } = database;
    const row = { configKey: 'sys.a', configValue: '1', name: 'A' };
    expect(
      await adapter.insertIgnoringConflicts(db, tables.sysConfig, tables.sysConfig.configKey, [row]),
    ).toBe(1);
    expect(statements[0]?.sql).toMatch(
      /^if not exists \(select 1 from \[sys_config\] with \(updlock, holdlock\) where \[sys_config\]\.\[config_key\] = @par0\) insert into \[sys_config\]/,
    );
    expect(statements[0]?.params.slice(0, 2)).toEqual(['sys.a', 'sys.a']);
  });

  it('locks the first-start seed with a transaction-owned application lock', async () => {
    const { database, statements } = recordingDatabase(() => []);
    await database.adapter.lockSeed(database.db);
    expect(statements[0]?.sql).toContain(
      "exec sp_getapplock @Resource = @par0, @LockMode = 'Exclusive', @LockOwner = 'Transaction'",
    );
  });

  it('locks one row with UPDLOCK, ROWLOCK and answers whether it exists', async () => {
    const found = recordingDatabase(() => [{ found: 1 }]);
    const { adapter, db, tables } = found.database;
    expect(await adapter.lockRow(db, tables.sysJob, 7)).toBe(true);
    expect(found.statements[0]?.sql).toBe(
      'select 1 as found from [sys_job] with (updlock, rowlock) where [sys_job].[id] = @par0',
    );
    expect(found.statements[0]?.params).toEqual([7]);
    const missing = recordingDatabase(() => []);
    expect(await missing.database.adapter.lockRow(missing.database.db, tables.sysJob, 8)).toBe(false);
  });
});

/** SQL Server's limit of parameters in one request (the lowest of the four dialects). */
const MSSQL_MAX_PARAMETERS = 2_100;
/** SQL Server's limit of rows in one `INSERT … VALUES` list. */
const MSSQL_MAX_VALUES_ROWS = 1_000;

describe('SQL Server: id lists longer than one statement may bind', () => {
  /** More ids than SQL Server binds in one statement, as a role's members or a scope's users can be. */
  const ids = Array.from({ length: 5_000 }, (_, i) => i + 1);
  const stamp = { userId: 1, at: new Date(0) };
  /** The numeric ids among a statement's parameters (the others are flags, texts and instants). */
  const idsIn = (params: unknown[]) => params.filter((p): p is number => typeof p === 'number');
  /** A row of `table` in select-list order: the id, nulls for the rest. */
  const rowOf = (table: Table, id: number | string) =>
    Object.fromEntries(Object.keys(getTableColumns(table)).map((k) => [k, k === 'id' ? id : null]));

  const calls: Array<[string, (repos: ReturnType<typeof createRepositories>) => Promise<unknown>]> = [
    ['users.findByIds', (r) => r.users.findByIds(ids)],
    ['users.roleIdsOf', (r) => r.users.roleIdsOf(ids)],
    ['users.softDelete', (r) => r.users.softDelete(ids, stamp)],
    [
      'users.insertWithRoles',
      (r) => r.users.insertWithRoles({ account: 'a', realName: 'A', password: 'h' }, ids),
    ],
    ['users.update with roles', (r) => r.users.update(1, { realName: 'A' }, stamp, ids)],
    ['roles.findByIds', (r) => r.roles.findByIds(ids)],
    ['roles.softDeleteMany', (r) => r.roles.softDeleteMany(ids, stamp)],
    [
      'roles.changeMembers',
      (r) =>
        r.roles.changeMembers(
          1,
          ids,
          ids.map((id) => id + 10_000),
        ),
    ],
    ['roles.setMenus', (r) => r.roles.setMenus(1, ids)],
    ['roles.setDataScope', (r) => r.roles.setDataScope(1, 5, ids, stamp)],
    ['roles.scopesOfRoles', (r) => r.roles.scopesOfRoles(ids)],
    ['roles.permissionsOfRoles', (r) => r.roles.permissionsOfRoles(ids)],
    ['menus.findByIds', (r) => r.menus.findByIds(ids)],
    ['modules.findByIds', (r) => r.modules.findByIds(ids)],
    ['orgs.existingIds', (r) => r.orgs.existingIds(ids)],
    ['files.findLive', (r) => r.files.findLive(ids)],
    ['files.softDeleteMany', (r) => r.files.softDeleteMany(ids)],
    ['files.purgeDeleted', (r) => r.files.purgeDeleted(ids)],
    ['dicts.getTypes', (r) => r.dicts.getTypes(ids)],
    ['dicts.getItems', (r) => r.dicts.getItems(ids)],
    ['dicts.deleteTypes', (r) => r.dicts.deleteTypes(ids)],
    ['dicts.deleteItems', (r) => r.dicts.deleteItems(ids)],
    ['jobs.softDelete', (r) => r.jobs.softDelete(ids)],
    [
      'notices.create',
      (r) => r.notices.create({ title: 't', type: 1, receiverType: 2, publishTime: new Date(0) }, ids),
    ],
    ['notices.liveRoleIds', (r) => r.notices.liveRoleIds(ids)],
    ['notices.liveUserIds', (r) => r.notices.liveUserIds(ids)],
    [
      'notices.userIdsInScope',
      (r) => r.notices.userIdsInScope(ids, { all: false, orgIds: [1, 2], selfUserId: 1 }),
    ],
    ['notices.roleMemberIds', (r) => r.notices.roleMemberIds(ids)],
    ['notices.mine (a page of 5,000)', (r) => r.notices.mine(1, { size: ids.length })],
    ['opLogs.storedTraceIds', (r) => r.opLogs.storedTraceIds(ids.map(String))],
    ['refreshTokens.revokeAllOfSessions', (r) => r.refreshTokens.revokeAllOfSessions(ids.map(String))],
    ['sessions.revokeAllOfUser', (r) => r.sessions.revokeAllOfUser(1, 'test', new Date(0))],
    ['onlineSessions.listOfUser', (r) => r.onlineSessions.listOfUser(1, new Date(0))],
  ];

  it.each(calls)(
    '%s binds at most 2,100 values a statement and inserts at most 1,000 rows',
    async (_, call) => {
      const { database, statements } = recordingDatabase((sql, params) => {
        // Reads whose answer feeds a second list: every job and role asked for exists; the user has 5,000 live
        // sessions and 5,000 notices.
        if (sql.startsWith('select [id] from [sys_job]')) return idsIn(params).map((id) => ({ id }));
        if (sql.startsWith('select count(*) from [sys_notice]')) return [{ total: ids.length }];
        if (sql.startsWith('select [id], [title]') && sql.includes('from [sys_notice]'))
          return ids.map((id) => rowOf(schema.sysNotice, id));
        if (sql.startsWith('select [id], [data_scope] from [sys_role]'))
          return idsIn(params).map((roleId) => ({ roleId, dataScope: 5 }));
        if (sql.startsWith('select [id] from [sys_session]')) return ids.map((id) => ({ id: String(id) }));
        if (sql.startsWith('select [id], [user_id]') && sql.includes('from [sys_session]'))
          return ids.map((id) => rowOf(schema.sysSession, String(id)));
        return [];
      });
      await call(createRepositories(database));
      const listed = statements.filter((s) => s.params.length > 0);
      expect(listed.length).toBeGreaterThan(0);
      for (const { sql, params } of listed) {
        expect(params.length, sql.slice(0, 80)).toBeLessThanOrEqual(MSSQL_MAX_PARAMETERS);
        const rows = sql.match(/ values (.*)$/)?.[1]?.split('), (').length ?? 0;
        expect(rows, sql.slice(0, 80)).toBeLessThanOrEqual(MSSQL_MAX_VALUES_ROWS);
      }
      // Split, not cut short: every id (numbers, or texts for session and trace ids) reached the database.
      const sent = new Set(listed.flatMap((s) => s.params.filter((p) => typeof p !== 'boolean')));
      expect(sent.size).toBeGreaterThanOrEqual(ids.length);
    },
  );
});
