/**
 * What the HTTP security middleware needs. The composition root (`createServer`) builds it from the security
 * layer; tests and consumers may replace any part.
 */
import type {
  ApiKeyValidator,
  AuthService,
  ClientIpResolver,
  PermissionResolver,
  RateLimiter,
  RuntimeSettings,
  SecurityEventLog,
  SessionAuthenticator,
} from '@svc/security';

export interface HttpSecurity {
  settings: RuntimeSettings;
  rateLimiter: RateLimiter;
  resolveClientIp: ClientIpResolver;
  apiKeys: ApiKeyValidator;
  /** Header carrying API keys (`Service:Security:ApiKey:HeaderName`). */
  apiKeyHeader: string;
  sessions: SessionAuthenticator;
  permissions: PermissionResolver;
  auth: AuthService;
  /** Key of the session-bound CSRF values (derived from the signing key, never the key itself). */
  csrfKey: Uint8Array;
  cookies: CookieSettings;
  demoMode: boolean;
  /** Login-log rows of refused requests (CSRF refusals here; refresh replay in the auth service). */
  securityEvents: SecurityEventLog;
}

export interface CookieSettings {
  /** `Service:Security:Session:CookieMode`. */
  enabled: boolean;
  domain: string | null;
  secure: boolean;
  sameSite: 'Strict' | 'Lax' | 'None';
  /** `Service:Security:Session:AllowedOrigins`, normalised (`allowedOriginSet`). */
  allowedOrigins: ReadonlySet<string>;
}
