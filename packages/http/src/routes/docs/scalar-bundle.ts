/**
 * The API reference bundle (`@scalar/api-reference`'s self-contained browser build), found in the installed npm
 * package so `/scalar` works without internet and its version follows the consumer's lockfile. The package is an
 * optional peer of `@svc/http` (the reference host depends on it): a consumer that leaves it out gets a page that
 * says which package to install instead of a blank page or a CDN request. A version outside the supported range
 * (another major may move or reshape the bundle) is not served either: the page names the installed and the
 * supported version. Its `engines.node` is not checked, since the bundle runs in the browser, not in the host.
 */
import { access, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { satisfiesRange } from '@svc/kernel';

/** The installed bundle: its file and the package version (used to make the script URL immutable). */
export interface ScalarBundle {
  path: string;
  version: string;
}

/** No bundle to serve: the package is missing, or `installed` names a version outside the supported range. */
export interface ScalarAbsent {
  path?: undefined;
  installed?: string;
}

/** The npm package that holds the bundle. */
export const SCALAR_PACKAGE = '@scalar/api-reference';
/** The versions whose bundle layout this page knows: the peer range in package.json (packaging.test.ts). */
export const SCALAR_RANGE = '^1.72.1';

/**
 * Finds the bundle in the installed package. The package exports no path to `dist/browser`, so the directory is
 * derived from its main entry (`dist/index.js`).
 */
export async function findScalarBundle(from: string = import.meta.url): Promise<ScalarBundle | ScalarAbsent> {
  const require = createRequire(from);
  let entry: string;
  try {
    entry = require.resolve(SCALAR_PACKAGE);
  } catch {
    return {};
  }
  const root = join(dirname(entry), '..');
  const path = join(root, 'dist', 'browser', 'standalone.js');
  try {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version?: unknown };
    const version = typeof pkg.version === 'string' ? pkg.version : '0';
    if (satisfiesRange(version, SCALAR_RANGE) !== true) return { installed: version };
    await access(path);
    return { path, version };
  } catch {
    return {};
  }
}
