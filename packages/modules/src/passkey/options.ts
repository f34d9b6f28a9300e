/**
 * `Service:Security:Passkey` (module `Passkey`): the relying party (RP id and name), the origins a ceremony may
 * come from, the user-verification demand and the challenge lifetime, written as the kernel's option leaves.
 * `validatePasskeyOptions` refuses, at start-up, a deployment where passkeys cannot work safely: outside
 * Development an RP id is required with the floor `Enabled` on (without it passkeys stay off there, whatever the
 * runtime switch says: `passkeysUsable`) and every origin must be HTTPS (`http://localhost` excepted) on the RP id's
 * domain; the browser would refuse anything else, and a wrong value would only show at the first ceremony.
 */
import { bool, type Infer, int, oneOf, section, str, strings } from '@svc/kernel';

/** The options' place under `Service`. */
export const PASSKEY_SECTION = 'Security:Passkey';

export const passkeyOptionsSchema = section({
  Enabled: bool(
    false,
    'Deploy-time floor: true keeps passkeys always on (else sys.security.passkey.enabled).',
  ),
  RpId: str(
    null,
    'Relying-party id: the host name passkeys are bound to (e.g. `example.com`). Required outside Development; Development uses the host of the request.',
  ),
  RpName: str('Service', 'Relying-party name the authenticator shows.'),
  Origins: strings(
    [],
    "Origins ceremonies may come from (`https://console.example.com`); empty = `https://<RpId>`. Development also allows the request's own origin.",
  ),
  UserVerification: oneOf(
    ['required', 'preferred', 'discouraged'],
    'required',
    'User verification asked of the authenticator; only a verified passkey counts as two factors.',
  ),
  ChallengeTtlSeconds: int(300, 'Validity of a registration or login challenge.', { min: 30, max: 3600 }),
});

export type PasskeyOptions = Infer<typeof passkeyOptionsSchema>;

const isLocalHost = (host: string) => host === 'localhost' || host.endsWith('.localhost');

/** The origin text of `value` (`https://a.example.com`), or undefined when it is not an absolute http(s) URL. */
export function originOf(value: string): URL | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) return undefined;
    return url;
  } catch {
    return undefined;
  }
}

/**
 * Whether passkeys can run with these options: outside Development only with an RP id (the request's host is never
 * trusted for it there).
 */
export function passkeysUsable(options: PasskeyOptions, env: { isDevelopment: boolean }): boolean {
  return env.isDevelopment || Boolean(options.RpId?.trim());
}

/** True when `host` is the RP id or a subdomain of it (WebAuthn's "registrable domain suffix" rule). */
export function hostWithinRpId(host: string, rpId: string): boolean {
  return host === rpId || host.endsWith(`.${rpId}`);
}

/**
 * The problems of `Service:Security:Passkey`, each naming its key; empty when usable.
 * @example validatePasskeyOptions(options, { isDevelopment: false }) // ['Service:Security:Passkey:RpId is required …']
 */
export function validatePasskeyOptions(options: PasskeyOptions, env: { isDevelopment: boolean }): string[] {
  const key = `Service:${PASSKEY_SECTION}`;
  const problems: string[] = [];
  const rpId = options.RpId?.trim().toLowerCase() || null;
  if (rpId !== null && !/^[a-z0-9.-]+$/.test(rpId))
    problems.push(`${key}:RpId must be a host name without scheme or port (got '${options.RpId}').`);
  if (rpId === null && !env.isDevelopment && options.Enabled)
    problems.push(`${key}:RpId is required outside Development (the host name passkeys are bound to).`);
  options.Origins.forEach((origin, i) => {
    const url = originOf(origin);
    if (!url) {
      problems.push(
        `${key}:Origins:${i} must be an origin such as https://console.example.com (got '${origin}').`,
      );
      return;
    }
    if (!env.isDevelopment && url.protocol !== 'https:' && !isLocalHost(url.hostname))
      problems.push(`${key}:Origins:${i} must be HTTPS outside Development (got '${origin}').`);
    if (rpId !== null && !hostWithinRpId(url.hostname, rpId))
      problems.push(`${key}:Origins:${i} is not on the RP id's domain '${rpId}' (got '${origin}').`);
  });
  return problems;
}
