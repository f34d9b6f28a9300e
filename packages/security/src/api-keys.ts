/**
 * Machine authentication with pre-shared API keys (spec "API key"): a replaceable key source (configuration by
 * default), a validator that compares the presented key with every known key in constant time, and the
 * start-up check of configured keys.
 */
import { constantTimeEqual, type ServiceOptions } from '@svc/kernel';
import { API_KEY_MIN_BYTES } from './constants.js';

/** Who a valid key authenticates: its name (the principal's `unique_name`) and the bound user, if any. */
export interface ApiKeyPrincipal {
  name: string;
  /** The user whose permissions and data scope the key acts with; null for an unbound key. */
  userId: number | null;
}

/** One known key. */
export interface ApiKeyEntry {
  name: string;
  /** The secret, as presented in the header. */
  key: string;
  userId: number | null;
}

/**
 * Where keys come from; replace it to keep keys elsewhere (a vault, a table). `list` is called for every
 * validation, so a source may change its keys at run time.
 */
export interface ApiKeySource {
  list(): readonly ApiKeyEntry[];
}

/** Validates presented keys. */
export interface ApiKeyValidator {
  /** The principal of a known key, or null for a missing or unknown one. */
  validate(presented: string | undefined): ApiKeyPrincipal | null;
}

/** The configured keys (`Service:Security:ApiKey:Keys`). */
export type ConfiguredApiKeys = ServiceOptions['Security']['ApiKey']['Keys'];

/** A configured key that cannot be used; start-up stops with it. */
export class ApiKeyConfigError extends Error {
  override readonly name = 'ApiKeyConfigError';
}

const KEY_PATH = 'Service:Security:ApiKey:Keys';
/** Visible ASCII: what survives an HTTP header unchanged (surrounding spaces are stripped by parsers). */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/**
 * Every problem with the configured keys, each naming its key path; empty when all are usable. Entries
 * with an empty `Key` are placeholders (for example a key to be injected from the environment) and ignored.
 */
export function checkApiKeyConfig(keys: ConfiguredApiKeys): string[] {
  const problems: string[] = [];
  const names = new Map<string, number>();
  const secrets = new Map<string, number>();
  keys.forEach((entry, i) => {
    if (entry.Key === '') return;
    const bytes = Buffer.byteLength(entry.Key, 'utf8');
    if (bytes < API_KEY_MIN_BYTES) {
      problems.push(
        `${KEY_PATH}:${i}:Key is ${bytes} bytes; at least ${API_KEY_MIN_BYTES} random bytes are required.`,
      );
    } else if (!HEADER_SAFE.test(entry.Key)) {
      problems.push(
        `${KEY_PATH}:${i}:Key holds spaces, control or non-ASCII characters and could never match a header value.`,
      );
    }
    const name = entry.Name.trim();
    if (name === '') problems.push(`${KEY_PATH}:${i}:Name is empty; every key needs a name.`);
    const sameName = names.get(name.toLowerCase());
    if (name !== '' && sameName !== undefined) {
      problems.push(`${KEY_PATH}:${i}:Name repeats ${KEY_PATH}:${sameName}:Name ("${name}").`);
    }
    names.set(name.toLowerCase(), i);
    const sameKey = secrets.get(entry.Key);
    if (sameKey !== undefined) problems.push(`${KEY_PATH}:${i}:Key repeats ${KEY_PATH}:${sameKey}:Key.`);
    secrets.set(entry.Key, i);
  });
  return problems;
}

/** Throws an {@link ApiKeyConfigError} listing every problem {@link checkApiKeyConfig} finds. */
export function assertApiKeyConfig(keys: ConfiguredApiKeys): void {
  const problems = checkApiKeyConfig(keys);
  if (problems.length > 0) throw new ApiKeyConfigError(problems.join('\n'));
}

/**
 * The default source: the configured keys, checked once here (start-up stops on an unusable key). Entries
 * with an empty `Key` are left out; `UserId` 0 means unbound.
 * @example
 * const source = configApiKeySource(options.Security.ApiKey.Keys);
 */
export function configApiKeySource(keys: ConfiguredApiKeys): ApiKeySource {
  assertApiKeyConfig(keys);
  const entries: readonly ApiKeyEntry[] = Object.freeze(
    keys
      .filter((k) => k.Key !== '')
      .map((k) => Object.freeze({ name: k.Name.trim(), key: k.Key, userId: k.UserId > 0 ? k.UserId : null })),
  );
  return { list: () => entries };
}

/**
 * Creates the validator. The presented key is compared with every known key, with no early exit, and each
 * comparison takes the same time wherever the strings differ (`constantTimeEqual`), so timing tells neither
 * which key matched nor how much of a guess was right.
 */
export function createApiKeyValidator(source: ApiKeySource): ApiKeyValidator {
  return {
    validate(presented) {
      if (typeof presented !== 'string' || presented.length === 0) return null;
      let match: ApiKeyEntry | undefined;
      for (const entry of source.list()) {
        const equal = constantTimeEqual(presented, entry.key);
        if (equal && entry.key.length > 0 && match === undefined) match = entry;
      }
      return match === undefined ? null : Object.freeze({ name: match.name, userId: match.userId });
    },
  };
}
