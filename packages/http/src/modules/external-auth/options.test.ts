import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfiguration, parseSection } from '@svc/kernel';
import { createStructuredLogger } from '@svc/logging';
import { externalAuthOptions, validateExternalAuth } from '@svc/modules';
import { describe, expect, it } from 'vitest';
import { createServer } from '../../host/create-server.js';
import { StartupError } from '../../host/startup-error.js';

const root = () => mkdtempSync(join(tmpdir(), 'svc-extauth-'));

const provider = (authority: string) => ({
  Service__Jwt__SecretKey: 'a-production-signing-key-of-at-least-32-bytes!!',
  Service__ExternalAuth__Oidc__0__Code: 'corp',
  Service__ExternalAuth__Oidc__0__Authority: authority,
  Service__ExternalAuth__Oidc__0__ClientId: 'svc',
});

const check = (env: Record<string, string>) => {
  const config = loadConfiguration({ contentRoot: root(), env, moduleSections: ['ExternalAuth'] });
  const options = parseSection(externalAuthOptions, config.section('ExternalAuth'), 'Service:ExternalAuth');
  return validateExternalAuth(options.value, config.environment);
};

describe('Service:ExternalAuth at start-up', () => {
  it('logs the unknown key that explains a refused start before refusing it', async () => {
    const lines: string[] = [];
    const logger = createStructuredLogger({
      format: 'json',
      destination: { write: (line: string) => lines.push(line) },
    });
    await expect(
      createServer({
        contentRoot: root(),
        logger,
        env: {
          ...provider('https://idp.example.com'),
          Service__ExternalAuth__CallbackUrl: 'https://x.example',
        },
      }),
    ).rejects.toThrow(/CallbackBaseUrl is required in Production/);
    expect(lines.some((l) => l.includes('Service:ExternalAuth:CallbackUrl is not a known key'))).toBe(true);
  });

  it('Production refuses a provider without CallbackBaseUrl', async () => {
    await expect(
      createServer({ contentRoot: root(), env: provider('https://idp.example.com') }),
    ).rejects.toSatisfy(
      (error: Error) =>
        error instanceof StartupError && /CallbackBaseUrl is required in Production/.test(error.message),
    );
  });

  it('Production refuses a non-HTTPS authority (and a non-HTTPS callback base)', async () => {
    await expect(
      createServer({
        contentRoot: root(),
        env: {
          ...provider('http://idp.example.com'),
          Service__ExternalAuth__CallbackBaseUrl: 'https://admin.example.com',
        },
      }),
    ).rejects.toThrow(/Oidc:0:Authority must be an absolute HTTPS URL/);
    expect(
      check({
        ...provider('https://idp.example.com'),
        Service__ExternalAuth__CallbackBaseUrl: 'http://admin.example.com',
      }),
    ).toEqual([expect.stringMatching(/CallbackBaseUrl must be an absolute HTTPS URL/)]);
  });

  it('accepts HTTPS in Production, and plain HTTP without a callback base outside Production', () => {
    expect(
      check({
        ...provider('https://idp.example.com'),
        Service__ExternalAuth__CallbackBaseUrl: 'https://admin.example.com',
      }),
    ).toEqual([]);
    expect(check({ ...provider('http://127.0.0.1:4000'), ASPNETCORE_ENVIRONMENT: 'Development' })).toEqual(
      [],
    );
    // No provider, no requirement.
    expect(check({})).toEqual([]);
  });

  it('refuses bad or duplicate codes and a missing client id', () => {
    const problems = check({
      ASPNETCORE_ENVIRONMENT: 'Development',
      Service__ExternalAuth__Oidc__0__Code: 'corp',
      Service__ExternalAuth__Oidc__0__Authority: 'https://idp.example.com',
      Service__ExternalAuth__Oidc__0__ClientId: 'svc',
      Service__ExternalAuth__Oidc__1__Code: 'CORP',
      Service__ExternalAuth__Oidc__1__Authority: 'https://idp.example.com',
      Service__ExternalAuth__Oidc__2__Code: 'a/b',
      Service__ExternalAuth__Oidc__2__Authority: 'not a url',
      Service__ExternalAuth__Oidc__2__ClientId: 'x',
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Oidc:1:Code 'CORP' is configured twice/),
        expect.stringMatching(/Oidc:1:ClientId is required/),
        expect.stringMatching(/Oidc:2:Code must be/),
        expect.stringMatching(/Oidc:2:Authority must be/),
      ]),
    );
  });
});
