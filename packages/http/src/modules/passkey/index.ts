/**
 * Module `Passkey`: passkeys (WebAuthn) as a passwordless login, a re-authentication method and a second factor.
 * Its table `sys_user_passkey` is its own (migrations under its journal `sys_schema_version_passkey`, applied only
 * while it is on); its library `@simplewebauthn/server` is an optional peer of @svc/modules, checked at start-up
 * while the module is on and loaded at the first ceremony. Options `Service:Security:Passkey`, runtime switch
 * `sys.security.passkey.enabled`. Module `Mfa` uses it when it is on: `/auth/reauth` with `method: "passkey"`,
 * and `/sys/mfa/clear` removing a user's passkeys too. A user purged for good takes their passkeys along
 * (`onUserPurged`).
 */
import {
  createPasskeyService,
  createPasskeyStore,
  importWebAuthn,
  MODULE_PEERS_FROM,
  PASSKEY_SECTION,
  PasskeyErrorCode,
  type PasskeyOptions,
  type PasskeyTables,
  passkeyLibraryNeeds,
  passkeyOptionsSchema,
  passkeyTables,
  validatePasskeyOptions,
} from '@svc/modules';
import { defineModule, type ModuleTables, moduleOptions, type SvcModule } from '../../module/define.js';
import { adminModule } from '../admin/index.js';
import adminDelete from './routes/admin-delete.js';
import adminList from './routes/admin-list.js';
import login from './routes/login.js';
import loginOptions from './routes/login-options.js';
import personalDelete from './routes/personal-delete.js';
import personalList from './routes/personal-list.js';
import personalOptions from './routes/personal-options.js';
import personalRegister from './routes/personal-register.js';
import personalRename from './routes/personal-rename.js';
import reauthOptions from './routes/reauth-options.js';
import type { PasskeyModuleServices } from './services.js';

export type { PasskeyModuleServices } from './services.js';

const tables: ModuleTables<PasskeyTables> = passkeyTables;

export const passkeyModule: SvcModule<'Passkey', PasskeyModuleServices, PasskeyOptions, PasskeyTables> =
  defineModule({
    name: 'Passkey',
    dependsOn: [adminModule],
    options: moduleOptions(PASSKEY_SECTION, passkeyOptionsSchema),
    check: (options, config) => validatePasskeyOptions(options, config.environment),
    // Only with the deploy floor on: a host that never turns passkeys on needs no WebAuthn library installed.
    libraries: (options) =>
      options.Enabled
        ? [{ needs: passkeyLibraryNeeds(), load: importWebAuthn, from: MODULE_PEERS_FROM }]
        : [],
    tables,
    errorCodes: [PasskeyErrorCode],
    services: ({ core, options, tables, use }): PasskeyModuleServices => {
      const admin = use(adminModule).admin;
      return {
        passkeys: createPasskeyService({
          store: createPasskeyStore({ database: core.database, tables }),
          options,
          isDevelopment: core.config.environment.isDevelopment,
          cache: core.cache,
          users: core.repos.users,
          auth: core.auth,
          passwords: core.passwords,
          loginSteps: core.mfa.steps,
          reauth: core.mfa.reauth,
          sessions: core.sessions,
          runtimeEnabled: () => core.security.settings.get('sys.security.passkey.enabled'),
          logger: core.logger.child('Service.Passkey'),
          now: core.now,
        }),
        security: core.security,
        admin,
        now: core.now,
      };
    },
    // A user deleted for good takes their passkeys along (the recycle bin's purge, any repos.users.purge).
    onUserPurged: async (s, userId) => {
      await s.passkeys.removeAll(userId);
    },
    // The login page offers "Sign in with a passkey" while the ceremonies would run (module on, options, switch).
    siteFeatures: (s) => [
      { name: 'passkey', read: () => s.passkeys.enabled(), keys: ['sys.security.passkey.enabled'] },
    ],
    health: (s) => [{ name: 'passkey-table', check: () => s.passkeys.probe() }],
    // Fixed paths before the `{id}` ones.
    routes: [
      loginOptions,
      login,
      reauthOptions,
      personalOptions,
      personalList,
      personalRegister,
      personalRename,
      personalDelete,
      adminList,
      adminDelete,
    ],
  });
