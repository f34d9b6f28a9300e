/**
 * A software authenticator for the passkey tests: P-256 keys from node:crypto, attestation `none`, real
 * authenticator data (RP id hash, flags UP/UV/BE/BS/AT, signature counter, attested credential data with the
 * COSE key) and real client data, answered in the browser's JSON form (`RegistrationResponseJSON`,
 * `AuthenticationResponseJSON`). The CBOR here is a small encoder for the tests only; the service itself parses
 * nothing of it (@simplewebauthn/server does). Every field an attack changes is an option.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/** Authenticator-data flags (WebAuthn §6.1). */
export const FLAGS = { UP: 0x01, UV: 0x04, BE: 0x08, BS: 0x10, AT: 0x40 } as const;

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [key: string]: Cbor };

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(length, 1);
    return b;
  }
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(length, 1);
  return b;
}

/** CBOR (RFC 8949) of the few kinds COSE keys and attestation objects use: integers, bytes, text, arrays, maps. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64 = (data: Uint8Array) => Buffer.from(data).toString('base64url');

/** The COSE_Key (RFC 9053) of a P-256 public key: kty EC2, alg ES256, crv P-256, x, y. */
export function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  return cbor(
    new Map<Cbor, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x ?? '', 'base64url')],
      [-3, Buffer.from(jwk.y ?? '', 'base64url')],
    ]),
  );
}

/** One passkey the software authenticator holds. */
export interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** The user handle the RP gave at registration (base64url). */
  userHandle: string;
  /** The signature counter; 0 keeps none (as many platform authenticators). */
  counter: number;
}

export interface CeremonyTweaks {
  /** The origin the browser writes into the client data. @default 'http://localhost' */
  origin?: string;
  /** The RP id whose hash goes into the authenticator data. @default the options' RP id */
  rpId?: string;
  /** The challenge written into the client data. @default the options' challenge */
  challenge?: string;
  /** Flags. @default UP | UV (| AT at registration) */
  flags?: number;
  /** The counter this assertion carries. @default the credential's counter + 1 when it keeps one */
  counter?: number;
  /** Signs with this key instead of the credential's. */
  signWith?: KeyObject;
  /** The client-data type. @default 'webauthn.create' / 'webauthn.get' */
  type?: string;
  /** The user handle answered. @default the credential's */
  userHandle?: string | null;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string | undefined };
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string | undefined;
}

const clientData = (type: string, challenge: string, origin: string) =>
  Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');

/** A new software credential (its counter starts at `counter`). */
export function newCredential(counter = 0): Omit<SoftCredential, 'userHandle'> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { id: randomBytes(32), privateKey, publicKey, counter };
}

/**
 * Answers `navigator.credentials.create()` for `options`: a new credential (or `credential`), attestation `none`.
 */
export function attest(
  options: CreationOptions,
  tweaks: CeremonyTweaks & { credential?: Omit<SoftCredential, 'userHandle'> } = {},
): { credential: SoftCredential; response: Record<string, unknown> } {
  const base = tweaks.credential ?? newCredential();
  const credential: SoftCredential = { ...base, userHandle: options.user.id };
  const rpId = tweaks.rpId ?? options.rp.id ?? 'localhost';
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(tweaks.counter ?? credential.counter);
  const idLength = Buffer.alloc(2);
  idLength.writeUInt16BE(credential.id.length);
  const authData = Buffer.concat([
    sha256(rpId),
    Buffer.from([tweaks.flags ?? FLAGS.UP | FLAGS.UV | FLAGS.AT]),
    counter,
    Buffer.alloc(16), // AAGUID: none given with attestation `none`
    idLength,
    credential.id,
    coseKey(credential.publicKey),
  ]);
  const attestationObject = cbor({ fmt: 'none', attStmt: {}, authData });
  const data = clientData(
    tweaks.type ?? 'webauthn.create',
    tweaks.challenge ?? options.challenge,
    tweaks.origin ?? 'http://localhost',
  );
  return {
    credential,
    response: {
      id: b64(credential.id),
      rawId: b64(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64(data),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    },
  };
}

/**
 * Answers `navigator.credentials.get()` for `options` with `credential`, signing authenticator data and the
 * client data's hash (ES256, DER). Moves the credential's counter when it keeps one.
 */
export function assert(
  credential: SoftCredential,
  options: RequestOptions,
  tweaks: CeremonyTweaks = {},
): Record<string, unknown> {
  const rpId = tweaks.rpId ?? options.rpId ?? 'localhost';
  const next = tweaks.counter ?? (credential.counter > 0 ? credential.counter + 1 : 0);
  if (tweaks.counter === undefined) credential.counter = next;
  const counter = Buffer.alloc(4);
  counter.writeUInt32BE(next);
  const authData = Buffer.concat([sha256(rpId), Buffer.from([tweaks.flags ?? FLAGS.UP | FLAGS.UV]), counter]);
  const data = clientData(
    tweaks.type ?? 'webauthn.get',
    tweaks.challenge ?? options.challenge,
    tweaks.origin ?? 'http://localhost',
  );
  const signature = sign(
    'sha256',
    Buffer.concat([authData, sha256(data)]),
    tweaks.signWith ?? credential.privateKey,
  );
  const handle = tweaks.userHandle === undefined ? credential.userHandle : tweaks.userHandle;
  return {
    id: b64(credential.id),
    rawId: b64(credential.id),
    type: 'public-key',
    response: {
      clientDataJSON: b64(data),
      authenticatorData: b64(authData),
      signature: b64(signature),
      ...(handle === null ? {} : { userHandle: handle }),
    },
    clientExtensionResults: {},
    authenticatorAttachment: 'platform',
  };
}
