/**
 * Connection strings: the ADO.NET `Key=Value;` form the spec's configuration uses (`Data Source=./data/svc.db`,
 * `Host=..;Port=..;Database=..;Username=..;Password=..`, `Server=..;Database=..;User Id=..;Password=..`) and
 * URLs (`postgres://`, `mysql://`, `mssql://`), parsed into one typed shape. Keys match case-insensitively and
 * ignore spaces (`User Id` = `userid`); unknown keys (pool tuning, charset) are ignored.
 */
import { isAbsolute, resolve } from 'node:path';
import { type DbType, parseDecimalInteger } from '@svc/kernel';
import { InvalidConnectionStringError } from './errors.js';

/** Transport encryption, normalised across the dialects' spellings. */
export type SslMode = 'disable' | 'prefer' | 'require' | 'verify-full';

/** An embedded SQLite file (absolute path) or `:memory:`. */
export interface SqliteConnectionConfig {
  readonly dbType: 'Sqlite';
  readonly filename: string;
}

/** A database server. */
export interface ServerConnectionConfig {
  readonly dbType: Exclude<DbType, 'Sqlite'>;
  readonly host: string;
  /** Undefined: the dialect's default port. */
  readonly port: number | undefined;
  readonly database: string;
  readonly user: string | undefined;
  readonly password: string | undefined;
  readonly sslMode: SslMode | undefined;
  /** SQL Server: `Encrypt`. */
  readonly encrypt: boolean | undefined;
  /** SQL Server: `TrustServerCertificate` (accept a self-signed certificate). */
  readonly trustServerCertificate: boolean | undefined;
  /** SQL Server: named instance (`Server=host\INSTANCE`). */
  readonly instanceName: string | undefined;
  readonly connectTimeoutSeconds: number | undefined;
}

export type ConnectionConfig = SqliteConnectionConfig | ServerConnectionConfig;

const URL_SCHEMES: Record<string, DbType> = {
  postgres: 'PostgreSQL',
  postgresql: 'PostgreSQL',
  mysql: 'MySql',
  mariadb: 'MySql',
  mssql: 'SqlServer',
  sqlserver: 'SqlServer',
};

/** Canonical key → accepted spellings (lower case, spaces and underscores removed). */
const KEY_ALIASES: Record<string, readonly string[]> = {
  file: ['datasource', 'filename'],
  host: ['host', 'server', 'datasource', 'address', 'addr', 'networkaddress'],
  port: ['port'],
  database: ['database', 'initialcatalog', 'db'],
  user: ['username', 'userid', 'user', 'uid'],
  password: ['password', 'pwd'],
  sslMode: ['sslmode', 'ssl-mode', 'ssl'],
  encrypt: ['encrypt'],
  trustServerCertificate: ['trustservercertificate'],
  instanceName: ['instancename'],
  timeout: ['timeout', 'connecttimeout', 'connectiontimeout', 'connect_timeout'],
};

const SSL_MODES: Record<string, SslMode> = {
  disable: 'disable',
  disabled: 'disable',
  none: 'disable',
  false: 'disable',
  allow: 'prefer',
  prefer: 'prefer',
  preferred: 'prefer',
  require: 'require',
  required: 'require',
  true: 'require',
  'verify-ca': 'verify-full',
  verifyca: 'verify-full',
  verify_ca: 'verify-full',
  'verify-full': 'verify-full',
  verifyfull: 'verify-full',
  verify_identity: 'verify-full',
};

/**
 * Parses a connection string for `dbType`. SQLite paths are resolved against `contentRoot`.
 * @throws InvalidConnectionStringError naming the problem (never echoing the password).
 * @example parseConnectionString('PostgreSQL', 'Host=db;Database=svc;Username=app;Password=secret', '/app')
 */
export function parseConnectionString(dbType: DbType, text: string, contentRoot: string): ConnectionConfig {
  const trimmed = text.trim();
  if (!trimmed) throw new InvalidConnectionStringError(dbType, 'it is empty');
  const values = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)
    ? fromUrl(dbType, trimmed)
    : dbType === 'Sqlite' && !trimmed.includes('=')
      ? { file: trimmed }
      : fromKeyValues(dbType, trimmed);

  if (dbType === 'Sqlite') {
    const file = values.file ?? values.host;
    if (!file) throw new InvalidConnectionStringError(dbType, 'expected `Data Source=<path>`');
    const filename = file === ':memory:' || isAbsolute(file) ? file : resolve(contentRoot, file);
    return { dbType, filename };
  }
  if (!values.host) throw new InvalidConnectionStringError(dbType, 'no host (`Host=` / `Server=`)');
  if (!values.database) throw new InvalidConnectionStringError(dbType, 'no database name (`Database=`)');
  const server = dbType === 'SqlServer' ? splitSqlServerHost(values.host) : { host: values.host };
  return {
    dbType,
    host: server.host,
    port: toPort(dbType, values.port ?? server.port),
    database: values.database,
    user: values.user || undefined,
    password: values.password || undefined,
    sslMode: toSslMode(dbType, values.sslMode),
    encrypt: toBool(dbType, 'Encrypt', values.encrypt),
    trustServerCertificate: toBool(dbType, 'TrustServerCertificate', values.trustServerCertificate),
    instanceName: values.instanceName ?? server.instanceName,
    connectTimeoutSeconds: toPositiveInt(dbType, 'Timeout', values.timeout),
  };
}

/** `PostgreSQL 127.0.0.1:5432/svc`, `Sqlite /app/data/svc.db`: what was tried, without credentials. */
export function describeTarget(config: ConnectionConfig): string {
  if (config.dbType === 'Sqlite') return config.filename;
  const instance = config.instanceName ? `\\${config.instanceName}` : '';
  const port = config.port === undefined ? '' : `:${config.port}`;
  return `${config.host}${instance}${port}/${config.database}`;
}

type Values = Partial<Record<keyof typeof KEY_ALIASES, string>>;

function fromUrl(dbType: DbType, text: string): Values {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidConnectionStringError(dbType, 'it looks like a URL but cannot be parsed');
  }
  const scheme = url.protocol.slice(0, -1).toLowerCase();
  if (URL_SCHEMES[scheme] !== dbType) {
    throw new InvalidConnectionStringError(dbType, `a ${scheme}:// URL does not match DbType ${dbType}`);
  }
  const values: Values = {
    host: decodeURIComponent(url.hostname.replace(/^\[(.*)\]$/, '$1')),
    port: url.port || undefined,
    database: decodeURIComponent(url.pathname.replace(/^\//, '')) || undefined,
    user: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
  };
  for (const [key, value] of url.searchParams) assign(values, key, value);
  return values;
}

function fromKeyValues(dbType: DbType, text: string): Values {
  const values: Values = {};
  for (const [key, value] of splitPairs(dbType, text)) assign(values, key, value);
  return values;
}

function assign(values: Values, rawKey: string, value: string): void {
  const key = rawKey.toLowerCase().replace(/[\s_]+/g, '');
  for (const [canonical, aliases] of Object.entries(KEY_ALIASES)) {
    if (aliases.includes(key) || aliases.includes(rawKey.toLowerCase())) {
      // `Data Source` means the file for SQLite and the server for SQL Server: fill both, the caller picks.
      values[canonical as keyof Values] ??= value;
    }
  }
}

/** Splits `a=1; b="x;y"; c='it''s'` into pairs; quotes protect `;` and double themselves to escape. */
function splitPairs(dbType: DbType, text: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  let i = 0;
  while (i < text.length) {
    const eq = text.indexOf('=', i);
    if (eq < 0) {
      if (text.slice(i).trim()) throw new InvalidConnectionStringError(dbType, 'expected `Key=Value` pairs');
      break;
    }
    const key = text.slice(i, eq).trim().replace(/^;+/, '').trim();
    let j = eq + 1;
    while (text[j] === ' ') j++;
    let value = '';
    const quote = text[j];
    if (quote === '"' || quote === "'") {
      j++;
      for (;;) {
        if (j >= text.length)
          throw new InvalidConnectionStringError(dbType, `unterminated quote in \`${key}\``);
        if (text[j] === quote) {
          if (text[j + 1] === quote) {
            value += quote;
            j += 2;
            continue;
          }
          j++;
          break;
        }
        value += text[j];
        j++;
      }
      const end = text.indexOf(';', j);
      i = end < 0 ? text.length : end + 1;
    } else {
      const end = text.indexOf(';', j);
      value = text.slice(j, end < 0 ? text.length : end).trim();
      i = end < 0 ? text.length : end + 1;
    }
    if (!key) throw new InvalidConnectionStringError(dbType, 'a pair has no key');
    pairs.push([key, value]);
  }
  return pairs;
}

/** `tcp:host,1433`, `host\INSTANCE`, `(local)`, `.` → host, port and instance. */
function splitSqlServerHost(raw: string): { host: string; port?: string; instanceName?: string } {
  let host = raw.replace(/^tcp:/i, '').trim();
  let port: string | undefined;
  const comma = host.lastIndexOf(',');
  if (comma >= 0) {
    port = host.slice(comma + 1).trim();
    host = host.slice(0, comma).trim();
  }
  let instanceName: string | undefined;
  const slash = host.indexOf('\\');
  if (slash >= 0) {
    instanceName = host.slice(slash + 1);
    host = host.slice(0, slash);
  }
  if (host === '.' || host.toLowerCase() === '(local)') host = 'localhost';
  return { host, ...(port ? { port } : {}), ...(instanceName ? { instanceName } : {}) };
}

function toPort(dbType: DbType, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  // Decimal digits only: Number() took `0x50` as port 80 and `1e3` as 1000.
  const port = parseDecimalInteger(value.trim());
  if (port === undefined || port < 1 || port > 65535) {
    throw new InvalidConnectionStringError(dbType, `port "${value}" is not a number between 1 and 65535`);
  }
  return port;
}

function toPositiveInt(dbType: DbType, key: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = parseDecimalInteger(value.trim());
  if (n === undefined || n < 0)
    throw new InvalidConnectionStringError(dbType, `${key} "${value}" is not a whole number`);
  return n;
}

function toBool(dbType: DbType, key: string, value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  const v = value.toLowerCase();
  if (['true', 'yes', '1', 'mandatory', 'strict'].includes(v)) return true;
  if (['false', 'no', '0', 'optional'].includes(v)) return false;
  throw new InvalidConnectionStringError(dbType, `${key} "${value}" is not true or false`);
}

function toSslMode(dbType: DbType, value: string | undefined): SslMode | undefined {
  if (value === undefined || value === '') return undefined;
  const mode = SSL_MODES[value.toLowerCase()];
  if (!mode) throw new InvalidConnectionStringError(dbType, `SSL mode "${value}" is not recognised`);
  return mode;
}
