import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeTarget, parseConnectionString } from './connection-string.js';
import { InvalidConnectionStringError } from './errors.js';

const root = '/srv/app';

describe('parseConnectionString: SQLite', () => {
  it('resolves a relative Data Source against the content root', () => {
    expect(parseConnectionString('Sqlite', 'Data Source=./data/svc.db', root)).toEqual({
      dbType: 'Sqlite',
      filename: resolve(root, 'data/svc.db'),
    });
  });

  it('keeps absolute paths and :memory:, accepts key spellings and a bare path', () => {
    expect(parseConnectionString('Sqlite', 'DataSource=/var/db/x.db;Cache=Shared', root)).toMatchObject({
      filename: '/var/db/x.db',
    });
    expect(parseConnectionString('Sqlite', 'Filename=:memory:', root)).toMatchObject({
      filename: ':memory:',
    });
    expect(parseConnectionString('Sqlite', 'data/a.db', root)).toMatchObject({
      filename: resolve(root, 'data/a.db'),
    });
  });

  it('rejects a string without a file', () => {
    expect(() => parseConnectionString('Sqlite', 'Mode=Memory', root)).toThrow(/Data Source=/);
  });
});

describe('parseConnectionString: servers', () => {
  it('reads the Npgsql form', () => {
    const c = parseConnectionString(
      'PostgreSQL',
      'Host=db.local;Port=5433;Database=svc;Username=app;Password=p;a=ss;SSL Mode=Require',
      root,
    );
    expect(c).toMatchObject({
      dbType: 'PostgreSQL',
      host: 'db.local',
      port: 5433,
      database: 'svc',
      user: 'app',
      password: 'p',
      sslMode: 'require',
    });
  });

  it('reads quoted values containing ; and doubled quotes', () => {
    const c = parseConnectionString('MySql', `Server=h;Database=d;Uid=u;Pwd="a;b""c";Charset=utf8mb4`, root);
    expect(c).toMatchObject({ host: 'h', database: 'd', user: 'u', password: 'a;b"c', port: undefined });
  });

  it('reads the SQL Server form with tcp:, port after a comma, instance and flags', () => {
    const c = parseConnectionString(
      'SqlServer',
      'Server=tcp:sql.local,1434;Initial Catalog=svc;User Id=sa;Password=x;TrustServerCertificate=true;Encrypt=false',
      root,
    );
    expect(c).toMatchObject({
      host: 'sql.local',
      port: 1434,
      database: 'svc',
      user: 'sa',
      trustServerCertificate: true,
      encrypt: false,
    });
    expect(parseConnectionString('SqlServer', 'Data Source=.\\SQLEXPRESS;Database=d', root)).toMatchObject({
      host: 'localhost',
      instanceName: 'SQLEXPRESS',
    });
  });

  it('reads URLs with encoded credentials and query options', () => {
    expect(
      parseConnectionString(
        'PostgreSQL',
        'postgres://us%40er:p%3Ass@127.0.0.1:5432/test?sslmode=disable',
        root,
      ),
    ).toMatchObject({
      host: '127.0.0.1',
      port: 5432,
      database: 'test',
      user: 'us@er',
      password: 'p:ss',
      sslMode: 'disable',
    });
    expect(parseConnectionString('MySql', 'mysql://root@127.0.0.1/test', root)).toMatchObject({
      user: 'root',
      password: undefined,
      port: undefined,
    });
    expect(
      parseConnectionString('SqlServer', 'mssql://sa:pw@sql:1433/svc?trustServerCertificate=true', root),
    ).toMatchObject({ host: 'sql', trustServerCertificate: true });
  });

  it('rejects a URL of another dialect, a missing database and a bad port without echoing the password', () => {
    expect(() => parseConnectionString('PostgreSQL', 'mysql://u:topsecret@h/d', root)).toThrow(
      /mysql:\/\/ URL does not match DbType PostgreSQL/,
    );
    expect(() => parseConnectionString('MySql', 'Server=h;Pwd=topsecret', root)).toThrow(/no database name/);
    expect(() => parseConnectionString('MySql', 'Server=h;Port=99999;Database=d', root)).toThrow(
      /port "99999"/,
    );
    // Decimal digits only (Number() read `0x50` as port 80 and `1e3` as 1000); spaces around a value are the
    // connection string's own.
    for (const port of ['0x50', '1e3', '80.0', '0b1', '+-1'])
      expect(() => parseConnectionString('MySql', `Server=h;Port=${port};Database=d`, root), port).toThrow(
        `port "${port}"`,
      );
    expect(parseConnectionString('MySql', 'Server=h;Port= 3307 ;Database=d', root)).toMatchObject({
      port: 3307,
    });
    for (const timeout of ['1e1', '0x10', '2.5'])
      expect(
        () => parseConnectionString('PostgreSQL', `Host=h;Database=d;Timeout=${timeout}`, root),
        timeout,
      ).toThrow(`Timeout "${timeout}"`);
    try {
      parseConnectionString('PostgreSQL', 'Host=h;Password=topsecret;SSL Mode=sometimes;Database=d', root);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidConnectionStringError);
      expect((error as Error).message).toContain('PostgreSQL');
      expect((error as Error).message).not.toContain('topsecret');
    }
  });
});

describe('describeTarget', () => {
  it('names host, port and database but never credentials', () => {
    const c = parseConnectionString('PostgreSQL', 'postgres://u:secret@h:5432/svc', root);
    expect(describeTarget(c)).toBe('h:5432/svc');
  });
});
