/**
 * Module Passkey's committed migrations are complete: drizzle-kit, run against a copy of each dialect's folder,
 * finds no schema change left to generate. A table edit without `pnpm db:generate` fails here.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const packageRoot = fileURLToPath(new URL('../../', import.meta.url));
const drizzleKit = join(packageRoot, 'node_modules', 'drizzle-kit', 'bin.cjs');

describe('passkey migrations', () => {
  it.each([
    ['sqlite', 'sqlite'],
    ['mysql', 'mysql'],
    ['pg', 'postgresql'],
    ['mssql', 'mssql'],
  ])('%s: nothing left to generate', async (folder, dialect) => {
    const copy = mkdtempSync(join(tmpdir(), `passkey-migrations-${folder}-`));
    try {
      cpSync(join(packageRoot, 'migrations', 'passkey', folder), copy, { recursive: true });
      const before = readdirSync(copy).sort();
      expect(before).toHaveLength(1);
      const { stdout } = await run(
        process.execPath,
        [
          drizzleKit,
          'generate',
          '--dialect',
          dialect,
          '--schema',
          `./src/passkey/tables/${folder}.ts`,
          '--out',
          copy,
        ],
        { cwd: packageRoot },
      );
      expect(stdout).toContain('No schema changes');
      expect(readdirSync(copy).sort()).toEqual(before);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
