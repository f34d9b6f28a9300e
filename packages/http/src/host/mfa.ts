/**
 * Composition of the second factors: the secret protector's master key (a configured key, else the persisted
 * development key; outside Development none, which keeps TOTP off and stops start-up when the deploy-time floor
 * `Service:Security:Totp:Enabled` demands TOTP), the repositories, the SMS sender, and the services. The
 * password login takes the login hooks before these services exist (they need the login's own
 * `openSession`), so the hooks are bound late: `lateLoginHooks()` forwards to whatever `bind` receives.
 */
import {
  createHighSensitivityRepository,
  createPhoneUserRepository,
  createTotpRepository,
  type Database,
  type Repositories,
} from '@svc/data';
import type { Cache } from '@svc/data/cache';
import type { Configuration, Logger } from '@svc/kernel';
import {
  createLogSmsSender,
  createMfaServices,
  createMfaSettings,
  createRecoveryCodeHasher,
  createSecretProtector,
  type LoginHooks,
  type MfaServices,
  type PasswordCheck,
  type RuntimeSettings,
  resolveMasterKey,
  type SessionAuthService,
  type SessionManager,
  type SmsSender,
} from '@svc/security';
import type { ServiceMetrics } from '../observability/metrics.js';
import { asStartupError, StartupError } from './startup-error.js';

export interface BuildMfaInput {
  config: Configuration;
  database: Database;
  repos: Repositories;
  cache: Cache;
  settings: RuntimeSettings;
  auth: () => SessionAuthService;
  sessions: SessionManager;
  /** The password login's own lock-aware check (one copy of the rule for every door). */
  passwords: PasswordCheck;
  logger: Logger;
  now: () => Date;
  /** Permission codes of the running service (read at request time, when every route is registered). */
  knownPermissionCodes: () => Iterable<string>;
  /** Where SMS codes go. @default a sender writing `[SMS] purpose=… phone=… code=…` to `Service.Sms` */
  smsSender?: SmsSender | undefined;
  /** Counts lockouts when metrics are on. */
  metrics?: ServiceMetrics | undefined;
}

/** The second-factor services and the start-up step that retires recovery codes stored in the unkeyed form. */
export interface BuiltMfa {
  services: MfaServices;
  /**
   * Rewraps every recovery code stored by an earlier release (unkeyed SHA-256) as `k0:` + HMAC under the master
   * key, in place; a no-op without a master key or once done, and safe while another instance does the same.
   */
  rewrapLegacyRecoveryCodes(): Promise<void>;
}

/** Builds the second-factor services; throws `StartupError` for a master-key problem the operator must fix. */
export function buildMfa(input: BuildMfaInput): BuiltMfa {
  const { config, logger } = input;
  const options = config.service;
  const startup = logger.child('Service.Startup');
  let masterKey: ReturnType<typeof resolveMasterKey>;
  try {
    masterKey = resolveMasterKey({
      masterKey: options.Security.DataProtection.MasterKey,
      isDevelopment: config.environment.isDevelopment,
      contentRoot: config.environment.contentRoot,
    });
  } catch (error) {
    throw asStartupError(error);
  }
  if (!masterKey && options.Security.Totp.Enabled) {
    throw new StartupError(
      'Service:Security:DataProtection:MasterKey is not set. Service:Security:Totp:Enabled is true, and outside ' +
        'Development TOTP seeds need a master key of at least 32 bytes ' +
        '(environment variable Service__Security__DataProtection__MasterKey).',
    );
  }
  if (!masterKey) {
    startup.warn(
      'TOTP stays off: Service:Security:DataProtection:MasterKey is not set (required outside Development).',
    );
  } else if (masterKey.source === 'dev-file') {
    startup.warn(`Using the development data-protection key at ${masterKey.path}.`);
  }

  const totp = createTotpRepository(input.database);
  const recoveryCodes = masterKey ? createRecoveryCodeHasher(masterKey.key) : undefined;
  const settings = createMfaSettings({
    options,
    runtime: input.settings,
    protectorAvailable: masterKey !== undefined,
  });
  const services = createMfaServices({
    repositories: {
      users: input.repos.users,
      totp,
      phones: createPhoneUserRepository(input.database),
      highSensitivity: createHighSensitivityRepository(input.database),
    },
    cache: input.cache,
    settings,
    auth: input.auth,
    sessions: input.sessions,
    passwords: input.passwords,
    protector: masterKey ? createSecretProtector(masterKey.key) : undefined,
    recoveryCodes,
    sender: input.smsSender ?? createLogSmsSender(logger.child('Service.Sms')),
    knownPermissionCodes: input.knownPermissionCodes,
    now: input.now,
    logger: logger.child('Service.Auth'),
  });
  return {
    services,
    async rewrapLegacyRecoveryCodes() {
      if (!recoveryCodes) return;
      const changed = await totp.rewrapRecoveryCodes(recoveryCodes.wrapLegacy);
      if (changed > 0)
        startup.info(`Rewrapped ${changed} recovery codes stored unkeyed by an earlier release.`);
    },
  };
}

/** Login hooks that forward to the hooks given to `bind` (the composition root binds them once). */
export function lateLoginHooks(): { hooks: Required<LoginHooks>; bind(target: LoginHooks): void } {
  let target: LoginHooks | undefined;
  const bound = () => {
    if (!target) throw new Error('The login hooks were called before the second-factor services were bound.');
    return target;
  };
  return {
    hooks: {
      verifyCaptcha: async (input) => bound().verifyCaptcha?.(input),
      afterPassword: async (user, input) => bound().afterPassword?.(user, input),
    },
    bind(next) {
      target = next;
    },
  };
}
