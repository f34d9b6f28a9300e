/**
 * The real start-up path (`createServer`) in Production with the passkeys' deploy floor on: without
 * `Service:Security:Passkey:RpId` it stops with the StartupError naming the key, before the database is opened.
 * With an RP id (and no Origins, which default to `https://<RpId>`) the same start gets past the check and on to
 * the database; with module Passkey switched off its section is not checked at all.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createServer } from '../../host/create-server.js';
import { StartupError } from '../../host/startup-error.js';

const production = {
  Service__Jwt__SecretKey: 'a-production-signing-key-of-at-least-32-bytes!!',
  Service__Security__Passkey__Enabled: 'true',
};

/** Starts in a fresh content root; answers the error and whether the SQLite default's folder was created. */
async function start(env: Record<string, string>) {
  const contentRoot = mkdtempSync(join(tmpdir(), 'svc-passkey-startup-'));
  const error = await createServer({ contentRoot, env }).catch((e: unknown) => e);
  return { error: error as Error, databaseOpened: existsSync(join(contentRoot, 'data')) };
}

describe('createServer with passkeys on in Production', () => {
  it('refuses to start without an RP id, naming Service:Security:Passkey:RpId, before the database', async () => {
    const { error, databaseOpened } = await start(production);
    expect(error).toBeInstanceOf(StartupError);
    expect(error.message).toContain(
      'Service:Security:Passkey:RpId is required outside Development (the host name passkeys are bound to).',
    );
    expect(databaseOpened).toBe(false);
  });

  it('goes on to the database with an RP id and no Origins, and with module Passkey off', async () => {
    for (const env of [
      { ...production, Service__Security__Passkey__RpId: 'example.com' },
      { ...production, Service__Api__DisabledModules__0: 'Passkey' },
    ]) {
      const { error, databaseOpened } = await start(env);
      // Production creates no tables: the start ends at the database, past the options check.
      expect(error).toBeInstanceOf(StartupError);
      expect(error.message).toMatch(/^The database lacks \d+ table\(s\)/);
      expect(databaseOpened).toBe(true);
    }
  });
});
