import { describe, expect, it } from 'vitest';
import { createConsoleLogger } from '../console-logger.js';
import { inlineParams, redactSensitiveValues, sqlKind, truncateSql } from './format.js';
import { createSqlLog, resolveSqlColor } from './sql-log.js';

describe('SQL rendering', () => {
  it('tells the kind by the leading keyword; WITH is a query', () => {
    expect(sqlKind('  with x as (select 1) select * from x')).toBe('Query');
    expect(sqlKind('(select 1)')).toBe('Query');
    expect(sqlKind('insert into t values (1)')).toBe('Insert');
    expect(sqlKind('UPDATE t set a = 1')).toBe('Update');
    expect(sqlKind('delete from t')).toBe('Delete');
    expect(sqlKind('create table t (a int)')).toBe('Ddl');
    expect(sqlKind('begin')).toBe('Transaction');
  });

  it('inlines parameters: booleans as 1/0, strings quoted, sensitive columns masked', () => {
    expect(
      inlineParams('select * from "sys_user" where "account" = ? and "enabled" = ? and "password" = ?', [
        "o'neil",
        true,
        'secret',
      ]),
    ).toBe(`select * from "sys_user" where "account" = 'o''neil' and "enabled" = 1 and "password" = '***'`);
    expect(
      inlineParams('update "t" set "token_hash" = $1, "n" = $2 where "id" in ($3, $4)', ['h', false, 1, 2]),
    ).toBe(`update "t" set "token_hash" = '***', "n" = 0 where "id" in (1, 2)`);
    expect(
      inlineParams(
        'insert into `sys_user` (`id`, `account`, `password`) values (default, ?, ?), (default, ?, ?)',
        ['a', 'p1', 'b', 'p2'],
      ),
    ).toBe(
      "insert into `sys_user` (`id`, `account`, `password`) values (default, 'a', '***'), (default, 'b', '***')",
    );
  });

  it("masks SQL Server's inserts: OUTPUT before VALUES, and the OUTPUT … INTO batch of @svc/data", () => {
    const columns = '([account], [password], [totp_secret]) ';
    const values = 'values (@par0, @par1, @par2), (@par3, @par4, @par5)';
    const params = ['a', 'h1', 's1', 'b', 'h2', 's2'];
    const masked = "values ('a', '***', '***'), ('b', '***', '***')";
    const bare = `insert into [sys_user] ${columns}output INSERTED.[id] ${values}`;
    expect(inlineParams(bare, params)).toBe(
      `insert into [sys_user] ${columns}output INSERTED.[id] ${masked}`,
    );
    const declare = 'declare @inserted table ([id] bigint null, [account] nvarchar(64) null); ';
    const into = 'output inserted.[id], inserted.[account] into @inserted ([id], [account]) ';
    const select = '; select [id], [account] from @inserted';
    const batch = `${declare}insert into [sys_user] ${columns}${into}${values}${select}`;
    expect(inlineParams(batch, params)).toBe(
      `${declare}insert into [sys_user] ${columns}${into}${masked}${select}`,
    );
    expect(redactSensitiveValues('Violation … (h2)', batch, params)).toBe('Violation … (***)');
    expect(sqlKind(batch)).toBe('Insert');
  });

  it('masks JSON held in a text parameter by property name (a job props text with its Authorization header)', () => {
    const props =
      '{"url":"https://api.example/hook","headers":{"Authorization":"Bearer s3cret"},"apiKey":"k3y"}';
    const text = inlineParams('update "sys_job" set "props_json" = ?, "name" = ? where "id" = ?', [
      props,
      'Hook',
      7,
    ]);
    expect(text).not.toMatch(/s3cret|k3y/);
    expect(text).toContain('https://api.example/hook');
    expect(text).toContain("'Hook'");
    // A text that is not JSON, or has nothing to mask, is inlined as it is.
    expect(inlineParams('select ?, ?', ['token is not a name here', '{"url":"x"}'])).toBe(
      `select 'token is not a name here', '{"url":"x"}'`,
    );
  });

  it('redacts sensitive values quoted in driver messages', () => {
    expect(
      redactSensitiveValues(
        "Duplicate entry 'abc123' for key 'uq'",
        'insert into `t` (`token_hash`, `n`) values (?, ?)',
        ['abc123', 5],
      ),
    ).toBe("Duplicate entry '***' for key 'uq'");
  });

  it('truncates with a note', () => {
    expect(truncateSql('x'.repeat(120), 100)).toMatch(/^x{100}… \[truncated: 120 characters in all\]$/);
  });

  it('colour is automatic only on a terminal without NO_COLOR', () => {
    expect(resolveSqlColor('auto', true, {})).toBe(true);
    expect(resolveSqlColor('auto', true, { NO_COLOR: '1' })).toBe(false);
    expect(resolveSqlColor('auto', false, {})).toBe(false);
    expect(resolveSqlColor('true', false, {})).toBe(true);
  });
});

describe('SQL console log', () => {
  it('prints blocks at or above MinMillis, counts all in the request summary, notes N+1 from 20', async () => {
    const lines: string[] = [];
    let t = 0;
    const log = createSqlLog({
      logger: createConsoleLogger({ sink: (l) => lines.push(l) }, 'Service.Sql'),
      enabled: true,
      minMillis: 5,
      clock: () => t,
    });
    await log.runRequest('GET /x', async () => {
      for (let i = 0; i < 20; i++) {
        const end = log.start('select ? from "t"', [i]);
        t += i === 7 ? 9 : 1;
        end();
      }
    });
    const blocks = lines.filter((l) => l.includes('Query [Service]'));
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toContain('select 7 from "t"');
    const summary = lines.at(-1) ?? '';
    expect(summary).toContain('GET /x: 20 statement(s), 28.0 ms in all, slowest #8 (9.0 ms)');
    expect(summary).toContain('suspected N+1');
  });

  it('warns about slow and failed statements with masked parameters even when the console log is off', () => {
    const lines: string[] = [];
    let t = 0;
    const log = createSqlLog({
      logger: createConsoleLogger({ sink: (l) => lines.push(l) }, 'Service.Sql'),
      slowMillis: 100,
      clock: () => t,
    });
    const end = log.start('update "u" set "password" = ? where "id" = ?', ['pw', 3]);
    t += 150;
    end();
    log.start('select 1', [])(new Error('boom'));
    expect(
      lines.some((l) => l.includes('Slow SQL #1') && l.includes(`"password" = '***'`) && !l.includes('pw')),
    ).toBe(true);
    expect(lines.some((l) => l.includes('Failed SQL #2') && l.includes('boom'))).toBe(true);
    expect(lines.some((l) => l.includes('Query [Service]'))).toBe(false);
  });
});
