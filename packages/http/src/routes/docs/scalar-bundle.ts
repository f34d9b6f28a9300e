/**
 * The API reference bundle (`@scalar/api-reference`'s self-contained browser build), found in the installed npm
 * package so `/scalar` works without internet and its version follows the consumer's lockfile. The package is an
 * optional peer of `@svc/http` (the reference host depends on it): a consumer that leaves it out gets a page that
 * says which package to install instead of a blank page or a CDN request.
 */
import { access, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The installed bundle: its file and the package version (used to make the script URL immutable). */
export interface ScalarBundle {
  path: string;
  version: string;
}

/** The npm package that holds the bundle. */
export const SCALAR_PACKAGE = '@scalar/api-reference';

/**
 * Finds the bundle in the installed package, or null when the package is not installed. The package exports no
 * path to `dist/browser`, so the directory is derived from its main entry (`dist/index.js`).
 */
export async function findScalarBundle(from: string = import.meta.url): Promise<ScalarBundle | null> {
  const require = createRequire(from);
  let entry: string;
  try {
    entry = require.resolve(SCALAR_PACKAGE);
  } catch {
    return null;
  }
  const root = join(dirname(entry), '..');
  const path = join(root, 'dist', 'browser', 'standalone.js');
  try {
    const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version?: unknown };
    await access(path);
    return { path, version: typeof pkg.version === 'string' ? pkg.version : '0' };
  } catch {
    return null;
  }
}
