/**
 * The library of module `Passkey`: `@simplewebauthn/server`, an optional peer of @svc/modules needed only while the
 * module is on. It does every WebAuthn check (client data, authenticator data, CBOR, COSE keys, attestation
 * statements, signatures); this package never parses any of them itself.
 *
 * The 13.x line: 14 requires Node 22, and @svc still supports Node 20.19.
 */
import type { PeerNeed } from '@svc/data';

/** The version supported: the peer range of @svc/modules' package.json (packaging.test.ts keeps them equal). */
export const WEBAUTHN_LIBRARY = { package: '@simplewebauthn/server', range: '^13.3.0' } as const;

/** What module `Passkey` loads while it is on. */
export function passkeyLibraryNeeds(): PeerNeed[] {
  return [
    {
      ...WEBAUTHN_LIBRARY,
      selectedBy: 'Module Passkey is on (Service:Api:DisabledModules does not list it)',
      owner: '@svc/modules',
    },
  ];
}

/** Imports the library (on the first ceremony; start-up's check only in an odd layout). */
export const importWebAuthn = () => import('@simplewebauthn/server');
