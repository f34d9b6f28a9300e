/**
 * The API reference bundle is an optional peer: a version outside the supported range is not served, and the
 * page names the installed and the supported version. Packages are faked in a private node_modules.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { scalarPage } from './openapi.js';
import { findScalarBundle, SCALAR_PACKAGE } from './scalar-bundle.js';

const root = mkdtempSync(join(tmpdir(), 'svc-scalar-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function fakeScalar(name: string, version: string): string {
  const dir = join(root, name, 'node_modules', SCALAR_PACKAGE);
  mkdirSync(join(dir, 'dist', 'browser'), { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: SCALAR_PACKAGE, version, main: 'dist/index.js' }),
  );
  writeFileSync(join(dir, 'dist', 'index.js'), '');
  writeFileSync(join(dir, 'dist', 'browser', 'standalone.js'), '');
  return pathToFileURL(join(root, name, 'app.js')).href;
}

describe('API reference bundle versions', () => {
  it('serves a supported version', async () => {
    const found = await findScalarBundle(fakeScalar('ok', '1.76.0'));
    expect(found).toMatchObject({ version: '1.76.0' });
    expect(found.path).toMatch(/standalone\.js$/);
  });

  it('refuses another major, and the page names the installed and the supported version', async () => {
    const found = await findScalarBundle(fakeScalar('next', '2.0.0'));
    expect(found).toEqual({ installed: '2.0.0' });
    const page = scalarPage('/openapi/v1.json', 'API', found);
    expect(page).not.toContain('<script');
    expect(page).toContain('The installed version 2.0.0 is not supported (supported: ^1.72.1)');
    expect(page).toContain(`${SCALAR_PACKAGE}@1`);
  });

  it('names the package when it is not installed', () => {
    expect(scalarPage('/openapi/v1.json', 'API', {})).toContain(`<code>${SCALAR_PACKAGE}</code> installed`);
  });
});
