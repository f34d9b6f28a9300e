/**
 * Module `ExternalAuth`: login with OpenID Connect providers, the nine routes under `/api/v1/auth/external`.
 * Its login service is built once here from the core.
 */
import {
  createExternalAuthService,
  ExternalAuthErrorCode,
  externalAuthLibraryNeeds,
  externalAuthOptions,
  importOpenidClient,
  MODULE_PEERS_FROM,
  validateExternalAuth,
} from '@svc/modules';
import { defineModule, moduleOptions } from '../../module/define.js';
import * as authorize from './routes/authorize.js';
import * as bind from './routes/bind.js';
import * as bindings from './routes/bindings.js';
import * as callback from './routes/callback.js';
import * as exchange from './routes/exchange.js';
import * as pendingClaim from './routes/pending-claim.js';
import * as providers from './routes/providers.js';
import * as providersAll from './routes/providers-all.js';
import * as unbind from './routes/unbind.js';
import type { ExternalAuthRouteDeps } from './services.js';

export type { ExternalAuthRouteDeps } from './services.js';

export const externalAuthModule = defineModule({
  name: 'ExternalAuth',
  options: moduleOptions('ExternalAuth', externalAuthOptions),
  errorCodes: [ExternalAuthErrorCode],
  check: (options, config) => validateExternalAuth(options, config.environment),
  // openid-client once a provider is configured; none configured needs none installed.
  libraries: (options) => {
    const needs = externalAuthLibraryNeeds(options);
    return needs.length > 0 ? [{ needs, load: importOpenidClient, from: MODULE_PEERS_FROM }] : [];
  },
  services: ({ core, options }): ExternalAuthRouteDeps => {
    const { config } = core;
    const environment = config.environment.name.toLowerCase();
    return {
      service: createExternalAuthService({
        environment: config.environment,
        options,
        repos: core.repos,
        cache: core.cache,
        configStore: core.configStore,
        auth: core.auth,
        loginSteps: core.mfa.steps,
        highSensitivity: core.mfa.highSensitivity,
        logger: core.logger.child('Service.ExternalAuth'),
        now: core.now,
      }),
      bindings: core.repos.userExternal,
      security: core.security,
      now: core.now,
      secureCookies: !(
        config.environment.isDevelopment ||
        environment === 'test' ||
        environment === 'testing'
      ),
      resultPath: options.FrontendResultPath || '/oauth/callback',
    };
  },
  // Fixed paths before the `{provider}` templates.
  routes: [providers, providersAll, exchange, pendingClaim, bindings, authorize, callback, bind, unbind],
});
