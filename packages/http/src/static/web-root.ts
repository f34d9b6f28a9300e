/**
 * Single-process hosting of a frontend build: static files from the web root, and `index.html` for GET/HEAD
 * paths that match nothing else and are not API, probe or docs paths. Enabled by `Service:Web:Enabled`.
 * The upload-exposure rule (spec "Upload exposure rule") is checked at start-up with `uploadRootExposure`
 * (modules/upload/index.ts, whether module `Upload` is on or not).
 *
 * What a web root often holds besides the build stays out: a path with a segment that starts with a dot
 * (`.env`, `.git/`; `.well-known/` excepted), in any encoding, answers 404, and so does a file whose real path
 * (symbolic links resolved) lies outside the web root. A missing asset (under `/assets/`, or a last segment with
 * a file extension) answers 404 too, not the app shell: a tab left open across a deploy then fails to load an
 * old chunk instead of parsing HTML as a script. The console's pages carry a content security policy that keeps
 * them out of frames and allows only their own scripts; hashed assets are cached for good, the rest revalidated.
 */
import { readFile, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Hono } from 'hono';
import type { AppEnv } from '../context.js';

/** Paths that never fall back to the frontend. */
const RESERVED = /^\/(api|health|openapi|scalar|hub)(\/|$)/i;
/** A segment starting with a dot, but `.well-known`. */
const DOT_SEGMENT = /(^|\/)\.(?!well-known(\/|$))/i;
/** Paths of files, not client routes: the build's assets and anything whose last segment has an extension. */
const FILE_PATH = /^\/assets\/|\.[A-Za-z0-9]+$/;
/** Vite names built assets by content hash (`index-BlhUuPGA.js`): they never change under their name. */
const HASHED_ASSET = /^\/assets\//;

/**
 * The console's policy: its own scripts only (no inline script, no eval), styles inline as Naive UI injects
 * them, images and fonts also as data/blob URLs, requests and the realtime socket to this origin, never framed.
 */
export const WEB_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every answer from the web root (the API's own secure headers are set by its middleware). */
function webHeaders(res: Response, path: string, html: boolean): Response {
  res.headers.set('X-Content-Type-Options', 'nosniff');
  res.headers.set('X-Frame-Options', 'DENY');
  res.headers.set('Referrer-Policy', 'no-referrer');
  if (html) res.headers.set('Content-Security-Policy', WEB_CONTENT_SECURITY_POLICY);
  res.headers.set(
    'Cache-Control',
    !html && HASHED_ASSET.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
  );
  return res;
}

/** Every reading of a request path a file server may make (as sent, and percent-decoded). */
function readings(path: string): string[] {
  const out = [path];
  try {
    out.push(decodeURIComponent(path));
  } catch {
    // Not decodable: served as sent, if at all.
  }
  return out;
}

/** True when `inner` is `outer` or lies below it. */
export function isInside(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

interface UploadExposureInput {
  webEnabled: boolean;
  webRoot: string;
  uploadRoot: string;
}

/**
 * The problem when static files are served and the upload root lies inside the web root (uploads would be
 * anonymously readable there, bypassing the authenticated download endpoint); undefined otherwise. Module
 * `Upload` checks it at start-up.
 */
export function uploadRootExposure(input: UploadExposureInput): string | undefined {
  if (!input.webEnabled || !isInside(resolve(input.webRoot), resolve(input.uploadRoot))) return undefined;
  return (
    `Service:Upload:RootPath (${input.uploadRoot}) lies inside the web root (${input.webRoot}) that Service:Web:Enabled ` +
    'serves anonymously. Move the upload root outside it, e.g. Service__Upload__RootPath=./storage/upload.'
  );
}

/** Mounts static files and the index.html fallback; call after every API route is registered. */
export function mountWebRoot(app: Hono<AppEnv>, webRoot: string): void {
  const root = relative(process.cwd(), webRoot) || '.';
  const indexPath = join(webRoot, 'index.html');
  const files = serveStatic<AppEnv>({ root });
  let realRoot: Promise<string> | undefined;

  /** False for dot segments and for files that resolve outside the web root (a missing file is the server's). */
  async function servable(path: string): Promise<boolean> {
    const forms = readings(path);
    if (forms.some((form) => DOT_SEGMENT.test(form))) return false;
    realRoot ??= realpath(webRoot).catch(() => resolve(webRoot));
    const base = await realRoot;
    for (const form of forms) {
      const real = await realpath(join(base, form)).catch(() => undefined);
      if (real !== undefined && !isInside(base, real)) return false;
    }
    return true;
  }

  app.use('*', async (c, next) => {
    const path = c.req.path;
    if (RESERVED.test(path)) return next();
    if (!(await servable(path))) return c.notFound();
    const res = await files(c, next);
    return res instanceof Response
      ? webHeaders(res, path, /\.html?$/i.test(path) || path.endsWith('/'))
      : res;
  });
  app.get('*', async (c, next) => {
    const path = c.req.path;
    if (RESERVED.test(path) || FILE_PATH.test(path)) return next();
    try {
      return webHeaders(c.html(await readFile(indexPath, 'utf8')), path, true);
    } catch {
      return next();
    }
  });
}
