/**
 * The deploy-time side of external login (`Service:ExternalAuth`): checks the providers at start-up. Production
 * refuses to start with a provider and no `CallbackBaseUrl` (the redirect URI must never come from the Host
 * header there) or with an authority that is not HTTPS.
 */
import type { Configuration, ServiceOptions } from '@svc/kernel';

/** One configured OpenID provider. */
export type OidcProviderOptions = ServiceOptions['ExternalAuth']['Oidc'][number];

const CODE = /^[A-Za-z0-9_-]{1,64}$/;

function isUrl(text: string, protocols: readonly string[]): boolean {
  try {
    return protocols.includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/**
 * The problems of `Service:ExternalAuth`, each naming its key; empty when the section is usable.
 * @example validateExternalAuth(config) // ['Service:ExternalAuth:CallbackBaseUrl is required in Production …']
 */
export function validateExternalAuth(config: Pick<Configuration, 'service' | 'environment'>): string[] {
  const { CallbackBaseUrl, Oidc } = config.service.ExternalAuth;
  const production = config.environment.isProduction;
  const problems: string[] = [];
  const seen = new Set<string>();
  Oidc.forEach((p, i) => {
    const key = `Service:ExternalAuth:Oidc:${i}`;
    if (!CODE.test(p.Code)) problems.push(`${key}:Code must be 1-64 letters, digits, '-' or '_'.`);
    else if (seen.has(p.Code.toLowerCase())) problems.push(`${key}:Code '${p.Code}' is configured twice.`);
    seen.add(p.Code.toLowerCase());
    if (!p.ClientId) problems.push(`${key}:ClientId is required.`);
    if (!isUrl(p.Authority, production ? ['https:'] : ['https:', 'http:']))
      problems.push(
        `${key}:Authority must be an absolute ${production ? 'HTTPS ' : ''}URL (got '${p.Authority}').`,
      );
  });
  if (Oidc.length > 0) {
    if (CallbackBaseUrl === null || CallbackBaseUrl === '') {
      if (production)
        problems.push(
          'Service:ExternalAuth:CallbackBaseUrl is required in Production when an OpenID provider is configured.',
        );
    } else if (!isUrl(CallbackBaseUrl, production ? ['https:'] : ['https:', 'http:'])) {
      problems.push(
        `Service:ExternalAuth:CallbackBaseUrl must be an absolute ${production ? 'HTTPS ' : ''}URL.`,
      );
    }
  }
  return problems;
}
