/**
 * The library of module `ExternalAuth`: openid-client, an optional peer of @svc/modules needed only once an OpenID
 * provider is configured (`Service:ExternalAuth:Oidc`). Without a provider, or with `ExternalAuth` in
 * `Service:Api:DisabledModules`, it need not be installed.
 */
import type { PeerNeed } from '@svc/data';
import type { ExternalAuthOptions } from './options.js';

/** The version supported: the peer range of @svc/modules' package.json (packaging.test.ts keeps them equal). */
export const OPENID_LIBRARY = { package: 'openid-client', range: '^6.9.0' } as const;

/** What module `ExternalAuth` loads with the providers configured: openid-client once there is one. */
export function externalAuthLibraryNeeds(options: Pick<ExternalAuthOptions, 'Oidc'>): PeerNeed[] {
  const count = options.Oidc.length;
  if (count === 0) return [];
  return [
    {
      ...OPENID_LIBRARY,
      selectedBy: `Service:ExternalAuth:Oidc configures ${count === 1 ? 'an OpenID provider' : `${count} OpenID providers`} for module ExternalAuth`,
      owner: '@svc/modules',
    },
  ];
}

/** Imports openid-client (on the first external login; start-up's check only in an odd layout). */
export const importOpenidClient = () => import('openid-client');
