/**
 * createServer checks the enabled modules' libraries before it opens the database: here module Import's exceljs is
 * held to a major this workspace does not install, so start-up stops with the StartupError naming what to install.
 * With Import off the same start gets past the check and on to the database.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createServer } from './create-server.js';
import { StartupError } from './startup-error.js';

vi.mock('@svc/modules', async (original) => {
  const actual = await original<typeof import('@svc/modules')>();
  return {
    ...actual,
    excelLibraryNeeds: () => actual.excelLibraryNeeds().map((need) => ({ ...need, range: '^99.0.0' })),
  };
});

const env = { Service__Jwt__SecretKey: 'a-production-signing-key-of-at-least-32-bytes!!' };

describe('createServer and the module libraries', () => {
  it('refuses to start with module Import on and an unsupported exceljs, before the database is opened', async () => {
    const contentRoot = mkdtempSync(join(tmpdir(), 'svc-module-libraries-'));
    const error = await createServer({ contentRoot, env }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StartupError);
    expect((error as Error).message).toMatch(
      /^Module Import is on \(Service:Api:DisabledModules does not list it\), but the installed "exceljs" 4\.\d+\.\d+ is not supported: @svc\/modules supports exceljs \^99\.0\.0\. It was not loaded\. Install a supported version beside @svc\/server \(npm install exceljs@99/,
    );
    // The SQLite default's file under the content root was never created.
    expect(existsSync(join(contentRoot, 'data'))).toBe(false);
  });

  it('does not check exceljs with module Import off: the same start goes on to the database', async () => {
    const contentRoot = mkdtempSync(join(tmpdir(), 'svc-module-libraries-'));
    const error = await createServer({
      contentRoot,
      env: { ...env, Service__Api__DisabledModules__0: 'Import' },
    }).catch((e: unknown) => e);
    // Production creates no tables: the start ends at the database, past the library check.
    expect(error).toBeInstanceOf(StartupError);
    expect((error as Error).message).toMatch(/^The database lacks \d+ table\(s\)/);
    expect(existsSync(join(contentRoot, 'data'))).toBe(true);
  });
});
