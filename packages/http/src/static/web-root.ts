/**
 * Single-process hosting of a frontend build: static files from the web root, and `index.html` for GET/HEAD
 * paths that match nothing else and are not API, probe or docs paths. Enabled by `Service:Web:Enabled`.
 * The upload-exposure rule (spec "Upload exposure rule") is checked at start-up by `assertUploadRootNotExposed`.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import type { AppEnv } from '../context.js';

/** Paths that never fall back to the frontend. */
const RESERVED = /^\/(api|health|openapi|scalar|hub)(\/|$)/i;

export class UploadExposureError extends Error {
  override readonly name = 'UploadExposureError';
}

/** True when `inner` is `outer` or lies below it. */
export function isInside(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * Stops start-up when static files are served and the upload root lies inside the web root: uploads would be
 * anonymously readable there, bypassing the authenticated download endpoint.
 */
export function assertUploadRootNotExposed(input: {
  webEnabled: boolean;
  webRoot: string;
  uploadRoot: string;
}): void {
  if (!input.webEnabled) return;
  if (isInside(resolve(input.webRoot), resolve(input.uploadRoot))) {
    throw new UploadExposureError(
      `Service:Upload:RootPath (${input.uploadRoot}) lies inside the web root (${input.webRoot}) that Service:Web:Enabled ` +
        'serves anonymously. Move the upload root outside it, e.g. Service__Upload__RootPath=./storage/upload.',
    );
  }
}

/** Mounts static files and the index.html fallback; call after every API route is registered. */
export function mountWebRoot(app: Hono<AppEnv>, webRoot: string): void {
  const root = relative(process.cwd(), webRoot) || '.';
  const indexPath = join(webRoot, 'index.html');
  const files = serveStatic<AppEnv>({ root });
  app.use('*', async (c, next) => {
    if (RESERVED.test(c.req.path)) return next();
    return files(c, next);
  });
  app.get('*', async (c, next) => {
    if (RESERVED.test(c.req.path)) return next();
    try {
      return c.html(await readFile(indexPath, 'utf8'));
    } catch {
      return next();
    }
  });
}
