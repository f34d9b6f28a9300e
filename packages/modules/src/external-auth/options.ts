/**
 * The deploy-time side of external login (`Service:ExternalAuth`): checks the providers at start-up. Production
 * refuses to start with a provider and no `CallbackBaseUrl` (the redirect URI must never come from the Host
 * header there) or with an authority that is not HTTPS.
 */
import { bool, type HostEnvironment, type Infer, listOf, section, str } from '@svc/kernel';

/** `Service:ExternalAuth:…` (`Service__ExternalAuth__…` in the environment). */
export const externalAuthOptions = section({
  CallbackBaseUrl: str(
    null,
    "Public base URL of the service (`https://admin.example.com`): the OpenID redirect URI is built from it. Required in Production when a provider is configured; without it (Development, tests) the request's own origin is used.",
  ),
  FrontendResultPath: str(
    '/oauth/callback',
    'Frontend path (or absolute URL) the callback redirects to with `?ticket=`, `?bind=`, `?error=` or `?pendingLink=`.',
  ),
  Oidc: listOf(
    section({
      Code: str(
        '',
        'Provider code in routes and config keys (`sys.externalauth.{code}.*`): letters, digits, `-`, `_`.',
      ),
      DisplayName: str('', 'Name on the login button (default: the code).'),
      Icon: str('', 'Icon name or URL for the login button.'),
      Authority: str(
        '',
        'Issuer URL; discovery reads `{Authority}/.well-known/openid-configuration`. HTTPS in Production.',
      ),
      ClientId: str('', 'Client id registered at the provider.'),
      ClientSecret: str('', 'Client secret (empty: a public client); inject from the environment.'),
      Scopes: str('openid profile email', 'Requested scopes (space-separated; `openid` is always added).'),
      UsePkce: bool(true, 'Send a PKCE S256 challenge.'),
    }),
    'OpenID Connect providers; each is off until `sys.externalauth.{code}.enabled` is true.',
  ),
});

export type ExternalAuthOptions = Infer<typeof externalAuthOptions>;

/** One configured OpenID provider. */
export type OidcProviderOptions = ExternalAuthOptions['Oidc'][number];

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
 * @example validateExternalAuth(options, config.environment) // ['Service:ExternalAuth:CallbackBaseUrl is required in Production …']
 */
export function validateExternalAuth(
  options: ExternalAuthOptions,
  environment: Pick<HostEnvironment, 'isProduction'>,
): string[] {
  const { CallbackBaseUrl, Oidc } = options;
  const production = environment.isProduction;
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
