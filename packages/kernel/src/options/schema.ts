/**
 * Every configuration key of the service, with its type, default and meaning. The parsed result is
 * `ServiceOptions`; the configuration reference in docs/configuration.md is generated from this one declaration
 * (`describeOptions`), so documentation and behaviour cannot drift apart.
 */
import { bool, dictionary, type Infer, int, listOf, oneOf, section, str, strings } from './leaf.js';

export const DB_TYPES = ['Sqlite', 'MySql', 'PostgreSQL', 'SqlServer'] as const;
export type DbType = (typeof DB_TYPES)[number];

export const CAPTCHA_TYPES = ['char', 'path', 'math'] as const;
export type CaptchaType = (typeof CAPTCHA_TYPES)[number];

export const API_MODULES = [
  'Meta',
  'Cache',
  'Config',
  'Dict',
  'Log',
  'Monitor',
  'Upload',
  'RecycleBin',
  'Job',
  'Notice',
  'Module',
  'Dashboard',
  'Import',
  'ExternalAuth',
  'Realtime',
  'Passkey',
] as const;

const MAX_MINUTES = 60 * 24 * 366;

/** The `Service` section. */
export const serviceSchema = section({
  Name: str('svc', 'Short name of the service: the embedded database file is `./data/<Name>.db`.'),
  DemoMode: bool(false, 'Read-only demo: every write outside /api/v1/auth/* answers 403 with 41002.'),
  Database: section({
    DbType: oneOf(DB_TYPES, 'Sqlite', 'Database dialect.'),
    ConnectionString: str(
      null,
      'Connection string (ADO.NET `Key=Value;` form or URL). Default for Sqlite: `Data Source=./data/<Name>.db`.',
    ),
    EnableCodeFirst: bool(true, 'Create and migrate tables at start-up.'),
    EnableCodeFirstInProduction: bool(false, 'Allow code-first creation when the environment is Production.'),
    SlowSqlMillis: int(1000, 'Statements at least this long are logged as slow (0 = off).', { min: 0 }),
    LogFailedSql: bool(true, 'Log every failed statement (masked parameters) as a warning.'),
    PoolSize: int(10, 'Connection pool size for server databases.', { min: 1, max: 1000 }),
    AcquireTimeoutSeconds: int(
      3,
      'Longest wait for a database connection (TCP connect; SQLite: the busy timeout) before HTTP 503 with 50003.',
      { min: 1, max: 600 },
    ),
    CommandTimeoutSeconds: int(
      10,
      'Longest a statement may run before it is cancelled and the request answers HTTP 503 with 50003.',
      { min: 1, max: 3600 },
    ),
    SqlLog: section({
      Enabled: bool(false, 'SQL console log master switch (development tool).'),
      MinMillis: int(0, 'Print only statements at least this long.', { min: 0 }),
      MaxSqlChars: int(4000, 'Longer statements are truncated with a note.', { min: 100 }),
      RequestSummary: bool(true, 'Add a summary line at the end of an HTTP request.'),
      Color: oneOf(
        ['auto', 'true', 'false'],
        'auto',
        'ANSI colour: automatic only on a terminal without NO_COLOR.',
      ),
    }),
  }),
  Cache: section({
    Provider: oneOf(['Memory', 'Redis'], 'Memory', 'Cache provider.'),
    Redis: section({
      Configuration: str(null, 'Redis URL, e.g. `redis://127.0.0.1:6379` (required when Provider is Redis).'),
      KeyPrefix: str('svc:', 'Prefix of every key this service writes.'),
    }),
    MemoryEntryLimit: int(100_000, 'In-process cache entry limit (0 = unlimited); counters are exempt.', {
      min: 0,
    }),
    MaxEntryMinutes: int(1440, 'In-process backstop lifetime of any entry (0 = none); counters are exempt.', {
      min: 0,
    }),
    PermissionMinutes: int(20, 'Lifetime of cached permissions, config and dictionary entries.', {
      min: 1,
      max: MAX_MINUTES,
    }),
  }),
  Jwt: section({
    SecretKey: str(null, 'HS256 signing key, at least 32 bytes. Required outside Development.'),
    Issuer: str('Service', '`iss` claim written and checked.'),
    ExpireMinutes: int(120, 'Access-token lifetime (fallback of sys.security.session.accessMinutes).', {
      min: 1,
      max: MAX_MINUTES,
    }),
    RefreshExpireMinutes: int(
      10080,
      'Refresh-token lifetime (fallback of sys.security.session.refreshMinutes).',
      {
        min: 1,
        max: MAX_MINUTES,
      },
    ),
  }),
  Security: section({
    DefaultInitialPassword: str(null, 'Initial password of created/reset users; null = random per account.'),
    Password: section({
      Pbkdf2Iterations: int(600_000, 'PBKDF2-SHA256 iterations; values below 100000 are raised to 100000.', {
        min: 1,
      }),
    }),
    LoginLock: section({
      MaxFailCount: int(5, 'Consecutive wrong passwords before the account locks (<= 0 disables).'),
      LockMinutes: int(10, 'Lock duration and sliding counter expiry.', { min: 1, max: MAX_MINUTES }),
    }),
    Captcha: section({
      Enabled: bool(false, 'Image captcha on login (and SMS send).'),
      Type: oneOf(CAPTCHA_TYPES, 'char', 'Captcha kind.'),
    }),
    SmsOtp: section({
      MfaEnabled: bool(false, 'SMS code after the password step (fallback of sys.security.mfa.enabled).'),
      LoginEnabled: bool(false, 'Passwordless SMS login (fallback of sys.security.smsLogin.enabled).'),
      CodeLength: int(6, 'Digits per code.', { min: 4, max: 10 }),
      TtlSeconds: int(300, 'Validity of a code and of an MFA challenge.', { min: 30, max: 3600 }),
      ResendSeconds: int(60, 'Per-number cooldown shared by MFA and login sends.', { min: 0, max: 3600 }),
      MaxAttempts: int(5, 'Wrong attempts before a code is invalidated.', { min: 1, max: 100 }),
      DailySendLimitPerPhone: int(10, 'Sends per number per day.', { min: 1, max: 1000 }),
    }),
    Totp: section({
      Enabled: bool(false, 'Deploy-time floor: true keeps TOTP always on.'),
      Issuer: str('Service', 'Issuer label shown in the authenticator.'),
      ChallengeTtlSeconds: int(300, 'Login challenge validity.', { min: 30, max: 3600 }),
      ReauthWindowMinutes: int(5, 'Re-authentication window for high-risk writes.', { min: 1, max: 1440 }),
      RecoveryCodeCount: int(10, 'Recovery codes per binding.', { min: 1, max: 50 }),
    }),
    DataProtection: section({
      MasterKey: str(
        null,
        'Master key of the secret protector (TOTP seeds) and of the recovery-code HMAC, at least 32 bytes. Outside Development TOTP stays off without it (start-up fails when Totp:Enabled is true); Development persists one at `./data/dev-protection.key`.',
      ),
    }),
    Session: section({
      CookieMode: bool(
        false,
        'Every session a cookie session: refresh token only in the HttpOnly cookie, CSRF header on writes (restart needed). Off: only clients that ask (`X-App-Session-Mode: cookie`, as the console does) get one.',
      ),
      CookieDomain: str(null, 'Cookie domain; empty = current host.'),
      CookieSecure: bool(true, 'Send the session cookies with `Secure`.'),
      CookieSameSite: oneOf(['Strict', 'Lax', 'None'], 'Strict', 'SameSite of the session cookies.'),
      AllowedOrigins: strings(
        [],
        "Cookie mode: origins (e.g. `https://console.example.com`) besides the request's own whose writes are accepted.",
      ),
      Mode: oneOf(['Multi', 'Single'], 'Multi', '`Single` revokes older sessions at each login.'),
      MaxConcurrent: int(0, 'Newest sessions kept per user (0 = unlimited).', { min: 0 }),
      IdleMinutesNormal: int(0, 'Idle timeout of a password session (0 = off).', { min: 0 }),
      IdleMinutesMfa: int(0, 'Idle timeout of a second-factor session (0 = off).', { min: 0 }),
      AbsoluteHours: int(0, 'Absolute session lifetime (0 = off).', { min: 0 }),
      RefreshReuseIntervalSeconds: int(
        5,
        'A rotated refresh token presented again within this many seconds answers 40007 without revoking the session (concurrent tabs, retries); later reuse revokes it (0 = strict: every reuse revokes).',
        { min: 0, max: 3600 },
      ),
    }),
    RateLimit: section({
      Enabled: bool(true, 'Deploy hard switch: false disables rate limiting regardless of runtime config.'),
      WindowSeconds: int(60, 'Fixed-window length.', { min: 1, max: 86_400 }),
      PermitPerWindow: int(300, 'Requests per client IP per window.', { min: 1 }),
      AuthPermitPerWindow: int(20, 'Requests per client IP per window on /api/v1/auth/*.', { min: 1 }),
      KeyPermitPerWindow: int(600, 'Requests per API key per window (<= 0 = unlimited).'),
    }),
    ForwardedHeaders: section({
      Enabled: bool(false, 'Honour X-Forwarded-For from the listed proxies only.'),
      KnownProxies: strings([], 'IP addresses of trusted reverse proxies.'),
    }),
    ApiKey: section({
      HeaderName: str('X-Api-Key', 'Header carrying the API key.'),
      Keys: listOf(
        section({
          Name: str('', 'Principal name (operation log, rate-limit partition, unique_name).'),
          Key: str('', 'Secret of at least 32 random bytes; inject from the environment.'),
          UserId: int(0, 'Binds the key to a user (0 = unbound).', { min: 0 }),
        }),
        'Machine keys.',
      ),
    }),
  }),
  Seed: section({
    AdminAccount: str('superAdmin', 'Account name of the seeded super admin.'),
    AdminPassword: str(null, 'Seed password; when unset a random one is generated and printed once.'),
  }),
  Web: section({
    Enabled: bool(false, 'Serve a frontend build from the web root with an index.html fallback.'),
    RootPath: str('./wwwroot', 'Web root (relative to the content root).'),
  }),
  Api: section({
    DisabledModules: strings([], `Modules removed from the API and the contract: ${API_MODULES.join(', ')}.`),
    MaxPageSize: int(200, 'Largest page size a paging query may ask for.', { min: 1, max: 10_000 }),
    ExposeOpenApi: bool(false, 'Mount /openapi/v1.json and /scalar outside Development.'),
    MaxBodyBytes: int(1_048_576, 'Largest JSON request body (uploads aside).', { min: 1024 }),
  }),
  Samples: section({
    Enabled: bool(null, 'Mount the reference host samples (default: on in Development only).'),
  }),
  Logging: section({
    RetentionDays: int(
      0,
      'Days the operation, login and exception logs keep their rows; older ones are deleted by the scheduled clean-up job (module Job). 0 keeps every row.',
      { min: 0, max: 36_500 },
    ),
    OpLog: section({
      Enabled: bool(true, 'Record authenticated writes in the operation log.'),
      Sync: bool(false, 'Write operation logs synchronously.'),
      QueueCapacity: int(
        10_000,
        'Asynchronous queue capacity; the oldest entry is spilled to disk when full.',
        {
          min: 1,
        },
      ),
      ParamMaxChars: int(8192, 'Longest recorded parameter text.', { min: 256 }),
      FlushIntervalMs: int(
        100,
        'Least time between the starts of two asynchronous batch writes while rows keep coming (a full batch of 200 goes at once); longer means fewer, fuller INSERTs and rows stored later.',
        { min: 0, max: 60_000 },
      ),
      SpillMaxMb: int(
        256,
        'Largest size of the files under {ContentRoot}/data holding log rows the database refused; the oldest are dropped beyond it.',
        { min: 1 },
      ),
    }),
  }),
  Server: section({
    IdleTimeoutSeconds: int(
      30,
      'A connection on which no byte moves for this long is closed unless the service is still working on its request: one that never sent a request or waits between requests, a request body that stopped arriving, a response the client stopped reading. WebSocket connections are exempt (the hub pings them).',
      { min: 1, max: 3600 },
    ),
    HeadersTimeoutSeconds: int(20, "Time a client has to send a request's headers.", {
      min: 1,
      max: 3600,
    }),
    RequestTimeoutSeconds: int(
      300,
      'Time a client has to send a whole request, body included: an upload of `Upload:MaxSizeMb` must arrive within it (50 MiB in 300 s needs about 1.4 Mbit/s). At least `HeadersTimeoutSeconds`.',
      { min: 1, max: 86_400 },
    ),
    MaxConnections: int(
      0,
      "Open connections the listener keeps; more are closed on accept. 0: three quarters of the process's open-file limit where it can be read (Linux), else no limit.",
      { min: 0, max: 10_000_000 },
    ),
  }),
  Shutdown: section({
    DrainSeconds: int(
      5,
      'Time to finish in-flight work at shutdown; idle keep-alive connections stay open until their keep-alive timeout or this ends.',
      { min: 0, max: 300 },
    ),
    DelaySeconds: int(
      0,
      'Time to keep serving normally after SIGTERM before the drain starts, for load balancers that still route to a stopping instance.',
      { min: 0, max: 300 },
    ),
  }),
  Metrics: section({
    Enabled: bool(false, 'Serve Prometheus metrics at /metrics (anonymous: never expose it publicly).'),
    Port: int(0, 'Own port for /metrics (0 = on the main listener).', { min: 0, max: 65535 }),
    Host: str('127.0.0.1', 'Address the separate metrics port binds to.'),
  }),
});

/** The top-level `Logging` section (log levels by category, e.g. `Service.Sql`). */
export const loggingSchema = section({
  LogLevel: dictionary({ Default: 'Information' }, 'Minimum level per logger category.'),
});

export type ServiceOptions = Infer<typeof serviceSchema>;
export type LoggingOptions = Infer<typeof loggingSchema>;
