/**
 * Module `Config`: the config centre (`/sys/config`), the login page's site info and the password policy in
 * effect. Its services (the config service and the site info) are built once here from the core's config store;
 * the site info carries the other modules' `siteFeatures` (module Passkey's `passkey`) without knowing them;
 * module `Cache` drops the site info through `useOptional(configModule)`.
 */
import { ConfigErrorCode, createConfigService, createSiteInfoService } from '@svc/data';
import { defineModule } from '../../module/define.js';
import { configRecycleTypes } from './recycle-types.js';
import * as configBatch from './routes/batch.js';
import * as configCreate from './routes/create.js';
import * as configDelete from './routes/delete.js';
import * as configDetail from './routes/detail.js';
import * as configPage from './routes/page.js';
import * as passwordPolicy from './routes/password-policy.js';
import * as site from './routes/site.js';
import * as configUpdate from './routes/update.js';
import * as configValue from './routes/value.js';
import type { ConfigRouteDeps } from './services.js';

export type { ConfigRouteDeps } from './services.js';

export const configModule = defineModule({
  name: 'Config',
  errorCodes: [ConfigErrorCode],
  services: ({ core, moduleSiteFeatures }): ConfigRouteDeps => {
    const { configStore, cache, now } = core;
    const siteInfo = createSiteInfoService({
      store: configStore,
      cache,
      options: core.config.service,
      ttlMs: core.config.service.Cache.PermissionMinutes * 60_000,
      now: () => now().getTime(),
      // What the other modules add (`siteFeatures`), known once all are built: read at request time.
      features: moduleSiteFeatures,
      onFeatureError: (name, error) =>
        core.logger.error(`Site feature ${name} could not be read; it answers false.`, { error }),
    });
    // A rejection surfaces where the site info is awaited; this keeps it from being reported as unhandled.
    siteInfo.catch(() => {});
    return {
      configs: createConfigService({ repo: core.repos.configs, store: configStore, now }),
      site: siteInfo,
      settings: core.security.settings,
      configStore,
    };
  },
  // Fixed paths before `/sys/config/{id}`, which would take them.
  routes: [
    configPage,
    site,
    passwordPolicy,
    configBatch,
    configValue,
    configDetail,
    configCreate,
    configUpdate,
    configDelete,
  ],
  recycleTypes: ({ configs }, { core }) =>
    configRecycleTypes({ repos: core.repos, now: core.now, configs: () => configs }),
  close: async ({ site }) => {
    await site.then((s) => s.close()).catch(() => {});
  },
});
