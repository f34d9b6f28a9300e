/**
 * Secrets in job props are write-only. A job's props may hold credentials (an HTTP job's Authorization header,
 * an API key a compiled handler reads), and the job answers go to anyone who may list jobs: there each secret
 * reads `***`. An update that sends `***` back where a secret is stored keeps the stored one, so a form that
 * edits the masked text and saves it changes nothing it did not touch; `***` where nothing is stored is refused
 * (48000). A secret goes only where it went (contract §11): when an HTTP job's method or URL (scheme, host, port,
 * path or query) changes, its secret headers sent back as `***` are dropped and a URL password sent back so is
 * refused; for another job, `***` with other props changed is refused: secrets are entered again for a new
 * target. Secrets are:
 * - the values of an HTTP job's `headers`, except {@link HARMLESS_HEADERS};
 * - the password in the user info of an HTTP job's `url` (`https://user:***@host/`);
 * - the value of any property, at any depth, whose name the log masking treats as sensitive
 *   (`isSensitiveParamName` of `@svc/logging`: password, secret, token, apiKey, code, …).
 * An HTTP body is a text and is shown as stored: credentials belong in headers.
 */
import type { JobHandlerKind } from '@svc/data';
import { BusinessError, ErrorCode } from '@svc/kernel';
import { isSensitiveParamName, MASK } from '@svc/logging';

/** Request headers an HTTP job's answer shows: they describe the request, none of them authenticates it. */
export const HARMLESS_HEADERS: ReadonlySet<string> = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'content-language',
  'content-type',
  'pragma',
  'user-agent',
  'x-requested-with',
]);

type Obj = Record<string, unknown>;
const isObject = (value: unknown): value is Obj =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const child = (parent: unknown, key: string): unknown =>
  isObject(parent) && Object.hasOwn(parent, key) ? parent[key] : undefined;
const secretHeader = (name: string) => !HARMLESS_HEADERS.has(name.toLowerCase());

/** `scheme://user:password@` at the start of a URL, up to the authority's last `@` (as URL parsing splits it). */
const USER_INFO = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#\\]*)@/i;

/** The password of a URL's user info and a way to put another in its place; undefined without one. */
function urlPassword(url: string): { password: string; with(password: string): string } | undefined {
  const match = USER_INFO.exec(url);
  const info = match?.[2];
  const colon = info?.indexOf(':') ?? -1;
  if (!match || info === undefined || colon < 0) return undefined;
  return {
    password: info.slice(colon + 1),
    with: (password) => `${match[1]}${info.slice(0, colon + 1)}${password}@${url.slice(match[0].length)}`,
  };
}

function maskValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskValue);
  if (!isObject(value)) return value;
  const out: Obj = {};
  for (const [key, item] of Object.entries(value))
    out[key] = isSensitiveParamName(key) ? MASK : maskValue(item);
  return out;
}

function maskHttp(props: Obj): Obj {
  const out: Obj = {};
  for (const [key, item] of Object.entries(props)) {
    if (key === 'headers' && isObject(item)) {
      out[key] = Object.fromEntries(
        Object.entries(item).map(([name, v]) => [name, secretHeader(name) ? MASK : v]),
      );
    } else if (key === 'url' && typeof item === 'string') {
      const info = urlPassword(item);
      out[key] = info && info.password !== '' ? info.with(MASK) : item;
    } else {
      out[key] = isSensitiveParamName(key) ? MASK : maskValue(item);
    }
  }
  return out;
}

function parse(text: string | null | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A job's `propsJson` as its answers show it: every secret `***` (the text as stored when it has none). */
export function maskPropsJson(kind: JobHandlerKind, propsJson: string | null): string | null {
  const props = parse(propsJson);
  if (props === null || typeof props !== 'object') return propsJson;
  const masked = kind === 2 && isObject(props) ? maskHttp(props) : maskValue(props);
  const text = JSON.stringify(masked);
  return text === JSON.stringify(props) ? propsJson : text;
}

/** Puts stored secrets back where the incoming props say `***`; records the places that have none. */
class Restorer {
  readonly missing: string[] = [];
  changed = false;
  dropped = false;
  /** The HTTP job calls another target: a secret header sent back as `***` is dropped, not restored. */
  constructor(private readonly dropHeaders = false) {}

  private stored(path: string, value: unknown): unknown {
    if (value === undefined) {
      this.missing.push(path);
      return MASK;
    }
    this.changed = true;
    return value;
  }

  value(value: unknown, stored: unknown, path: string): unknown {
    if (Array.isArray(value))
      return value.map((item, i) =>
        this.value(item, Array.isArray(stored) ? stored[i] : undefined, `${path}[${i}]`),
      );
    if (!isObject(value)) return value;
    const out: Obj = {};
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      out[key] =
        item === MASK && isSensitiveParamName(key)
          ? this.stored(at, child(stored, key))
          : this.value(item, child(stored, key), at);
    }
    return out;
  }

  http(props: Obj, stored: unknown): Obj {
    const out: Obj = {};
    for (const [key, item] of Object.entries(props)) {
      if (key === 'headers' && isObject(item)) {
        const storedHeaders = child(stored, 'headers');
        const headers: Obj = {};
        for (const [name, value] of Object.entries(item)) {
          if (this.dropHeaders && value === MASK && secretHeader(name)) {
            this.dropped = true;
            continue;
          }
          // Header names are case-insensitive: `authorization` keeps a stored `Authorization`.
          const kept = isObject(storedHeaders)
            ? Object.entries(storedHeaders).find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1]
            : undefined;
          headers[name] = value === MASK && secretHeader(name) ? this.stored(`headers.${name}`, kept) : value;
        }
        out[key] = headers;
      } else if (key === 'url' && typeof item === 'string' && urlPassword(item)?.password === MASK) {
        const storedUrl = child(stored, 'url');
        const kept = typeof storedUrl === 'string' ? urlPassword(storedUrl)?.password : undefined;
        const password = this.stored('url', kept);
        out[key] = password === MASK ? item : (urlPassword(item)?.with(String(password)) ?? item);
      } else {
        out[key] =
          item === MASK && isSensitiveParamName(key)
            ? this.stored(key, child(stored, key))
            : this.value(item, child(stored, key), key);
      }
    }
    return out;
  }
}

/**
 * The `propsJson` to store from one a client sent: `***` in a secret's place takes the value stored there
 * (`stored`: the job's props before the write, null for a new job). 48000 naming the places that say `***`
 * where nothing is stored. Text that is not JSON is left to the handler validation.
 */
export function keepStoredSecrets(
  kind: JobHandlerKind,
  propsJson: string | null | undefined,
  stored: string | null,
): string | null | undefined {
  if (!propsJson?.includes(MASK)) return propsJson;
  const props = parse(propsJson);
  if (props === null || typeof props !== 'object') return propsJson;
  const previous = parse(stored);
  const moved = kind === 2 && previous !== undefined && targetOf(props) !== targetOf(previous);
  const restorer = new Restorer(moved);
  const restored =
    kind === 2 && isObject(props) ? restorer.http(props, previous) : restorer.value(props, previous, '');
  if (restorer.missing.length > 0)
    throw invalid(`${MASK} keeps a stored secret, but none is stored at ${restorer.missing.join(', ')}`);
  if (!restorer.changed) return restorer.dropped ? JSON.stringify(restored) : propsJson;
  // A kept secret goes only where it went: whoever may edit a job must not send its stored credentials to a
  // target of their choosing (an echo service would show them in the run log). An HTTP job's secret headers are
  // dropped above when the target moves; a URL password on a moved target is refused.
  if (kind === 2) {
    if (moved)
      throw invalid(
        `${MASK} keeps a stored secret only while the job calls the same URL with the same method: enter the secrets again`,
      );
  } else if (
    maskPropsJson(kind, JSON.stringify(restored)) !== maskPropsJson(kind, JSON.stringify(previous))
  ) {
    throw invalid(
      `${MASK} keeps a stored secret only while the other props stay as they are: enter the secrets again`,
    );
  }
  return JSON.stringify(restored);
}

const invalid = (message: string) =>
  new BusinessError(ErrorCode.ParamInvalid, { errors: [{ path: 'propsJson', message }] });

/**
 * What an HTTP job calls: its method and its URL's scheme, host (lower case, as URL parsing writes it), port, path
 * and query, without user info and fragment; undefined when the props hold no URL. Any change to one of them is a
 * new target (contract §11), a path alone too: an endpoint on the same host may reflect the headers it gets.
 */
function targetOf(props: unknown): string | undefined {
  const url = child(props, 'url');
  if (typeof url !== 'string') return undefined;
  const method = child(props, 'method');
  try {
    const parsed = new URL(url);
    return `${typeof method === 'string' ? method : 'GET'} ${parsed.protocol}//${parsed.host}${parsed.pathname}${parsed.search}`;
  } catch {
    return undefined;
  }
}
