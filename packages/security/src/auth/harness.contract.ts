/**
 * Shared setup of the auth contract suites (a `.contract.ts` file, so it stays out of the build): one fresh,
 * migrated database and one cache per test file, and per test a set of services on a pinned clock with the
 * policy and runtime rows that test wants. Hashing uses 100,000 PBKDF2 iterations, the spec's floor.
 */
import { randomUUID } from 'node:crypto';
import { createRepositories, type Repositories, type SysUserRow } from '@svc/data';
import { type Cache, createMemoryCache, createRedisCache } from '@svc/data/cache';
import { type OpenTestDatabase, openTestDatabase, testDialects } from '@svc/data/testing';
import {
  type DbType,
  hashPassword,
  type LogFields,
  type Logger,
  PBKDF2_MIN_ITERATIONS,
  type Pbkdf2Derive,
  parseSection,
  serviceSchema,
  silentLogger,
} from '@svc/kernel';
import { afterAll, beforeAll, describe } from 'vitest';
import type { LoginLock } from '../lockout.js';
import { createRuntimeSettings, type RuntimeSettings } from '../runtime-config.js';
import { type AccessTokens, createAccessTokens } from '../tokens.js';
import type { LoginHooks } from './auth-deps.js';
import { createAuthService, type SessionAuthService } from './auth-service.js';
import type { SessionAuthenticator } from './contracts.js';
import { assemblePasswordCheck, type PasswordCheck } from './password-check.js';
import { createPermissionResolver, type PermissionCache } from './permissions.js';
import type { ClientInfo } from './principal.js';
import { createSessionManager, type SessionManager } from './session-manager.js';
import type { SessionPolicy } from './session-state.js';
import { createSessionAuthenticator } from './sessions.js';

/** Which database and cache a runner picks. */
export interface AuthFixture {
  dbType: DbType;
  cache: 'Memory' | 'Redis';
}

export const ITERATIONS = PBKDF2_MIN_ITERATIONS;
export const PASSWORD = 'Start#Pass123';
export const CLIENT: ClientInfo = { ip: '203.0.113.5', userAgent: 'contract-test/1.0' };
const KEY = new Uint8Array(32).fill(7);
const T0 = Date.parse('2025-05-01T08:00:00.000Z');

/** A controllable clock. */
export interface Clock {
  now(): Date;
  advance(ms: number): void;
}

export function pinnedClock(start = T0): Clock {
  let at = start;
  return {
    now: () => new Date(at),
    advance(ms) {
      at += ms;
    },
  };
}

/**
 * The per-file part: database, repositories, cache and one pinned clock. The memory cache runs on that clock
 * too, so its expiry is deterministic; Redis keeps its own time (tests that need cache expiry say so).
 */
export interface AuthWorld {
  fixture: AuthFixture;
  database: OpenTestDatabase;
  repos: Repositories;
  cache: Cache;
  /** The Redis key prefix of this file (a second connection with it is a second instance on one Redis). */
  keyPrefix: string;
  clock: Clock;
  dispose(): Promise<void>;
}

export async function openAuthWorld(fixture: AuthFixture): Promise<AuthWorld> {
  const database = await openTestDatabase(fixture.dbType);
  const clock = pinnedClock();
  const keyPrefix = `svc-test:${randomUUID()}:`;
  const cache =
    fixture.cache === 'Redis'
      ? await createRedisCache({ url: process.env.SVC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', keyPrefix })
      : createMemoryCache({ now: () => clock.now().getTime() });
  return {
    fixture,
    database,
    repos: createRepositories(database.database),
    cache,
    keyPrefix,
    clock,
    async dispose() {
      if (fixture.cache === 'Redis') await cache.deleteByPrefix('');
      await cache.close();
      await database.cleanup();
    },
  };
}

/**
 * A suite on one fresh world, skipped when the dialect is outside `SVC_TEST_DIALECTS`.
 * @example describeAuth('login', fixture, (world) => { it('…', async () => { const s = buildServices(world()); }); });
 */
export function describeAuth(
  name: string,
  fixture: AuthFixture,
  body: (world: () => AuthWorld) => void,
): void {
  describe.skipIf(!testDialects().includes(fixture.dbType))(
    `${name} (${fixture.dbType}, ${fixture.cache})`,
    () => {
      let world: AuthWorld | undefined;
      beforeAll(async () => {
        world = await openAuthWorld(fixture);
      });
      afterAll(() => world?.dispose());
      body(() => {
        if (!world) throw new Error('world not open');
        return world;
      });
    },
  );
}

/** What a test can tune. */
export interface ServiceOverrides {
  policy?: Partial<SessionPolicy>;
  /** Runtime `sys.*` rows, as stored text. */
  runtime?: Record<string, string>;
  hooks?: LoginHooks;
  logger?: Logger;
  /** Another cache on the same store (a second instance on one Redis). @default the world's cache */
  cache?: Cache;
  /** PBKDF2 primitive (tests count the hashes each attempt runs). */
  derive?: Pbkdf2Derive;
  /** PBKDF2 strength of the service. @default ITERATIONS */
  iterations?: number;
  /** `Service:Security:Session:RefreshReuseIntervalSeconds`. @default 5 */
  refreshReuseIntervalSeconds?: number;
}

/** The services of one test on the shared world. */
export interface AuthServices {
  clock: Clock;
  runtime: Map<string, string>;
  settings: RuntimeSettings;
  tokens: AccessTokens;
  lock: LoginLock;
  passwords: PasswordCheck;
  manager: SessionManager;
  sessions: SessionAuthenticator;
  auth: SessionAuthService;
  permissions: PermissionCache;
}

export function buildServices(world: AuthWorld, overrides: ServiceOverrides = {}): AuthServices {
  const { clock } = world;
  const runtime = new Map(Object.entries(overrides.runtime ?? {}));
  const options = parseSection(serviceSchema, {}, 'Service').value;
  const settings = createRuntimeSettings({ store: { getRaw: async (key) => runtime.get(key) }, options });
  const policy: SessionPolicy = {
    mode: 'Multi',
    maxConcurrent: 0,
    idleMinutesNormal: 0,
    idleMinutesMfa: 0,
    absoluteHours: 0,
    ...overrides.policy,
  };
  const now = clock.now;
  const tokens = createAccessTokens({ key: KEY, issuer: 'Service', now: () => now().getTime() });
  const cache = overrides.cache ?? world.cache;
  const passwords = assemblePasswordCheck({
    repositories: world.repos,
    cache,
    lockSettings: () => settings.loginLock(),
    pbkdf2Iterations: overrides.iterations ?? ITERATIONS,
    ...(overrides.derive ? { derive: overrides.derive } : {}),
    now,
    logger: overrides.logger ?? silentLogger,
  });
  const lock = passwords.lock;
  const sessionDeps = {
    sessions: world.repos.sessions,
    refreshTokens: world.repos.refreshTokens,
    cache,
    policy,
    now,
  };
  const manager = createSessionManager(sessionDeps);
  const sessions = createSessionAuthenticator({ ...sessionDeps, tokens, manager });
  const auth = createAuthService({
    repositories: world.repos,
    sessions: manager,
    tokens,
    passwords,
    cache,
    settings,
    policy,
    now,
    ...(overrides.hooks ? { hooks: overrides.hooks } : {}),
    ...(overrides.refreshReuseIntervalSeconds === undefined
      ? {}
      : { refreshReuseIntervalSeconds: overrides.refreshReuseIntervalSeconds }),
    logger: overrides.logger ?? silentLogger,
  });
  const permissions = createPermissionResolver({ permissions: world.repos.permissions, cache });
  return { clock, runtime, settings, tokens, lock, passwords, manager, sessions, auth, permissions };
}

let accountSeq = 0;

/** Inserts a user with {@link PASSWORD} (or `password`) hashed at `iterations`; the account is unique. */
export async function createUser(
  world: AuthWorld,
  extra: Partial<
    Pick<SysUserRow, 'enabled' | 'isDelete' | 'isSuperAdmin' | 'orgId' | 'mustChangePassword'>
  > & {
    account?: string;
    password?: string;
    iterations?: number;
    lastPasswordChangeTime?: Date | null;
  } = {},
): Promise<SysUserRow> {
  const { account, password, iterations, ...flags } = extra;
  const id = await world.repos.users.insert({
    account: account ?? `user${++accountSeq}_${randomUUID().slice(0, 8)}`,
    realName: 'Contract User',
    password: await hashPassword(password ?? PASSWORD, iterations ?? ITERATIONS),
    ...flags,
  });
  const row = await world.repos.users.findById(id, { includeDeleted: true });
  if (!row) throw new Error('user vanished');
  return row;
}

/**
 * Changes a user row directly, as an operator or another process could, bypassing every service. Rows are
 * matched by their (unique) account or id text through the adapter, so this file needs no query builder.
 */
export async function updateUserBehindTheService(
  world: AuthWorld,
  account: string,
  values: { enabled?: boolean; isDelete?: boolean },
): Promise<void> {
  const { db, adapter, tables } = world.database.database;
  await db
    .update(tables.sysUser)
    .set(values)
    .where(adapter.equalsIgnoreCase(tables.sysUser.account, account));
}

/** Marks a session row revoked directly (no tombstone, no token revocation). */
export async function revokeRowBehindTheService(
  world: AuthWorld,
  sessionId: string,
  at: Date,
): Promise<void> {
  const { db, adapter, tables } = world.database.database;
  await db
    .update(tables.sysSession)
    .set({ revokedAt: at })
    .where(adapter.equalsIgnoreCase(tables.sysSession.id, sessionId));
}

/** A logger that keeps what it is told (error paths). */
export function recordingLogger(): Logger & { lines: Array<{ message: string; fields?: LogFields }> } {
  const lines: Array<{ message: string; fields?: LogFields }> = [];
  const push = (message: string, fields?: LogFields) =>
    void lines.push({ message, ...(fields ? { fields } : {}) });
  const logger = {
    ...silentLogger,
    category: 'test',
    lines,
    debug: push,
    info: push,
    warn: push,
    error: push,
    child: () => logger,
  };
  return logger;
}
