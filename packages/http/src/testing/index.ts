/**
 * Test helpers for apps built on @svc (`@svc/http/testing`): start the whole service on a fresh database of
 * any dialect, with cheap-but-legal hashing, captured logs and a throw-away content root.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SeedMenu } from '@svc/data';
import { createTestDatabase, type TestDatabase } from '@svc/data/testing';
import type { DbType, ErrorCodeSet, LogLevel } from '@svc/kernel';
import { hashPassword } from '@svc/kernel';
import { createConsoleLogger } from '@svc/logging';
import type { CreateAppOptions } from '../app.js';
import { createServer, type SvcServer } from '../host/create-server.js';
import type { AnyModule } from '../module/define.js';

export interface TestServerOptions {
  /** @default 'Sqlite' */
  dbType?: DbType;
  /** Cache provider. @default process.env.SVC_TEST_CACHE ?? 'Memory' */
  cache?: 'Memory' | 'Redis';
  /** Extra environment variables (`Service__...`, `ASPNETCORE_ENVIRONMENT`). Development is the default. */
  env?: Record<string, string>;
  errorCodes?: readonly ErrorCodeSet[];
  /** Modules of the test's own (`defineModule`), composed after the built-in ones. */
  modules?: readonly AnyModule[];
  configure?: CreateAppOptions['configure'];
  /** Extra seed menus (buttons for test routes' permission codes). */
  seedMenus?: readonly SeedMenu[];
  /** The service clock (tests move it instead of sleeping). */
  now?: () => Date;
  /** Reuse an existing database and content root (restart tests). */
  reuse?: { database: TestDatabase; contentRoot: string };
}

export interface TestServer {
  server: SvcServer;
  database: TestDatabase;
  contentRoot: string;
  /** Every log line written so far. */
  logs: string[];
  /** `app.request` with a JSON body helper. */
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<Response>;
  /** Closes the service (keeps database and content root for a restart). */
  stop(): Promise<void>;
  /** Closes the service and drops the database and content root. */
  close(): Promise<void>;
}

/** The seed password used by test servers unless a test asks for a generated one. */
export const TEST_ADMIN_PASSWORD = 'Admin#Pass2345';

/** Environment a test server starts with; `options.env` entries override it. */
export function testEnvironment(database: TestDatabase, options: TestServerOptions): Record<string, string> {
  const cache = options.cache ?? (process.env.SVC_TEST_CACHE === 'Redis' ? 'Redis' : 'Memory');
  return {
    ASPNETCORE_ENVIRONMENT: 'Development',
    Service__Database__DbType: database.dbType,
    Service__Database__ConnectionString: database.connectionString,
    Service__Security__Password__Pbkdf2Iterations: '100000',
    Service__Seed__AdminPassword: TEST_ADMIN_PASSWORD,
    Service__Cache__Provider: cache,
    Service__Cache__Redis__Configuration: process.env.SVC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    Service__Cache__Redis__KeyPrefix: `svc-test-${Math.random().toString(36).slice(2, 10)}:`,
    Logging__LogLevel__Default: 'Information',
    ...options.env,
  };
}

/** Starts a service for a test. Throws what `createServer` throws (e.g. `StartupError`). */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const database = options.reuse?.database ?? (await createTestDatabase(options.dbType ?? 'Sqlite'));
  const contentRoot = options.reuse?.contentRoot ?? mkdtempSync(join(tmpdir(), 'svc-host-'));
  const logs: string[] = [];
  const logger = createConsoleLogger({
    levels: { Default: 'Information' as LogLevel },
    sink: (line) => logs.push(line),
  });
  let server: SvcServer;
  try {
    server = await createServer({
      contentRoot,
      env: testEnvironment(database, options),
      logger,
      ...(options.errorCodes ? { errorCodes: options.errorCodes } : {}),
      ...(options.modules ? { modules: options.modules } : {}),
      ...(options.configure ? { configure: options.configure } : {}),
      ...(options.seedMenus ? { seedMenus: options.seedMenus } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
  } catch (error) {
    if (!options.reuse) {
      await database.drop();
      rmSync(contentRoot, { recursive: true, force: true });
    }
    throw error;
  }
  const stop = () => server.close();
  return {
    server,
    database,
    contentRoot,
    logs,
    request(path, init = {}) {
      const { json, ...rest } = init;
      if (json === undefined) return Promise.resolve(server.app.request(path, rest));
      const headers = new Headers(rest.headers);
      headers.set('content-type', 'application/json');
      return Promise.resolve(
        server.app.request(path, { method: 'POST', ...rest, headers, body: JSON.stringify(json) }),
      );
    },
    stop,
    async close() {
      await stop();
      await database.drop();
      rmSync(contentRoot, { recursive: true, force: true });
    },
  };
}

/** Changes a runtime key as the config centre does: the row, then the change event (applies at once). */
export async function setRuntimeConfig(t: TestServer, key: string, value: string): Promise<void> {
  const changed = await t.server.database.repos.configs.updateValue(key, value);
  if (!changed) throw new Error(`no config row ${key}`);
  await t.server.configStore.invalidate(key);
}

/** Password of users made by `grantPermissions`. */
export const TEST_USER_PASSWORD = 'User#Pass2345';

/**
 * Creates a user with one role holding one button that carries `permissions` (what the administration routes
 * will do), and returns the user id.
 */
export async function grantPermissions(
  t: TestServer,
  input: { account: string; permissions: readonly string[]; orgId?: number },
): Promise<number> {
  const { db, adapter, tables } = t.server.database.database;
  const password = await hashPassword(TEST_USER_PASSWORD, 100_000);
  const userId = await adapter.insertReturningId(db, tables.sysUser, {
    account: input.account,
    realName: input.account,
    password,
    orgId: input.orgId ?? 1,
  });
  const roleId = await adapter.insertReturningId(db, tables.sysRole, {
    name: `role-${input.account}`,
    code: `role_${input.account}`,
  });
  const menuId = await adapter.insertReturningId(db, tables.sysMenu, {
    parentId: 0,
    type: 'button',
    title: `grant-${input.account}`,
    permission: input.permissions.join(';'),
  });
  await db.insert(tables.sysUserRole).values({ userId, roleId });
  await db.insert(tables.sysRoleMenu).values({ roleId, menuId });
  // As the administration services do after a grant: the user's next request sees the new codes.
  await t.server.security.permissions.invalidateUser(userId);
  return userId;
}

export {
  type FaultServer,
  type FaultServerOrSkip,
  holdUserRowsLock,
  sparePort,
  startPrivatePostgres,
  startPrivateRedis,
} from '@svc/data/testing';
