import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@svc/kernel';
import { describe, expect, it } from 'vitest';
import { createServer } from './create-server.js';

/** A Production start on a fresh SQLite file, with `env` added. */
function startProduction(env: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'svc-mfa-host-'));
  return createServer({
    contentRoot: root,
    logger: silentLogger,
    env: {
      ASPNETCORE_ENVIRONMENT: 'Production',
      Service__Jwt__SecretKey: 'p'.repeat(40),
      Service__Database__ConnectionString: `Data Source=${join(root, 'svc.db')}`,
      Service__Database__EnableCodeFirstInProduction: 'true',
      Service__Security__Password__Pbkdf2Iterations: '100000',
      Service__Seed__AdminPassword: 'Admin#Pass2345',
      ...env,
    },
  });
}

describe('second-factor start-up rules', () => {
  it('stops a Production start that demands TOTP without a master key, naming the key', async () => {
    await expect(startProduction({ Service__Security__Totp__Enabled: 'true' })).rejects.toThrow(
      /Service:Security:DataProtection:MasterKey is not set/,
    );
  });

  it('refuses a master key shorter than 32 bytes', async () => {
    await expect(startProduction({ Service__Security__DataProtection__MasterKey: 'short' })).rejects.toThrow(
      /MasterKey is 5 bytes/,
    );
  });

  it('keeps TOTP off in Production without a master key, whatever the runtime row says', async () => {
    const server = await startProduction({});
    try {
      await server.database.repos.configs.updateValue('sys.security.totp.enabled', 'true');
      await server.configStore.invalidate();
      expect(await server.deps.core.mfa.settings.totpEnabled()).toBe(false);
    } finally {
      await server.close();
    }
    const keyed = await startProduction({
      Service__Security__DataProtection__MasterKey: 'm'.repeat(32),
      Service__Security__Totp__Enabled: 'true',
    });
    try {
      expect(await keyed.deps.core.mfa.settings.totpEnabled()).toBe(true);
    } finally {
      await keyed.close();
    }
  });
});
