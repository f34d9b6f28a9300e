/**
 * `GET /openapi/v1.json` and `GET /scalar`: the contract and its reading UI. Mounted in Development, elsewhere
 * only with `Service:Api:ExposeOpenApi` (404 otherwise). Neither appears in the contract itself.
 *
 * The page loads the API reference bundle from this host (`/scalar/standalone.js?v=<version>`), read from the
 * installed `@scalar/api-reference` package: no CDN, so the page works offline and cannot change under us. The
 * reference is configured to fetch nothing else from the internet (no web fonts, no request proxy, no telemetry).
 */
import { readFile } from 'node:fs/promises';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Configuration, ErrorCodeRegistry } from '@svc/kernel';
import type { AppEnv } from '../../context.js';
import { buildDocument } from '../../openapi/document.js';
import {
  findScalarBundle,
  SCALAR_PACKAGE,
  SCALAR_RANGE,
  type ScalarAbsent,
  type ScalarBundle,
} from './scalar-bundle.js';

/** Where the page loads the bundle from. */
export const SCALAR_SCRIPT_PATH = '/scalar/standalone.js';

/** Settings passed to the reference: keep every request on this host. */
const SCALAR_CONFIGURATION = JSON.stringify({
  withDefaultFonts: false,
  hideClientButton: true,
  telemetry: false,
  showDeveloperTools: 'never',
});

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * The page: the contract's URL and the local script, or a note naming the package when it is not installed (or
 * the installed and the supported version when it is outside the range).
 */
export function scalarPage(specUrl: string, title: string, bundle: ScalarBundle | ScalarAbsent): string {
  const major = /\d+/.exec(SCALAR_RANGE)?.[0];
  const installed = 'installed' in bundle ? bundle.installed : undefined;
  const install = installed
    ? `The installed version ${escapeHtml(installed)} is not supported (supported: ${SCALAR_RANGE}); install <code>${SCALAR_PACKAGE}@${major}</code>.`
    : '';
  const body = bundle.path
    ? `<script id="api-reference" data-url="${escapeHtml(specUrl)}" data-configuration="${escapeHtml(SCALAR_CONFIGURATION)}"></script>
<script src="${SCALAR_SCRIPT_PATH}?v=${encodeURIComponent(bundle.version)}"></script>`
    : `<p>The API reference needs the npm package <code>${SCALAR_PACKAGE}</code> installed beside the host.${install ? `\n${install}` : ''}
The contract itself is at <a href="${escapeHtml(specUrl)}">${escapeHtml(specUrl)}</a>.</p>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body>
${body}
</body>
</html>
`;
}

/**
 * The reference page is never framed (a page that sends authenticated requests from the reader's browser is what
 * clickjacking wants), sniffed or sent on as a referrer. Only framing is restricted by the policy: the bundle
 * builds its own styles and workers, which a stricter one would have to follow release by release.
 */
const DOCS_PAGE_HEADERS = {
  'Content-Security-Policy': "frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** What the contract and its reference page are built from. */
export interface DocsDeps {
  config: Configuration;
  errors: ErrorCodeRegistry;
  /** Package version shown in the contract. */
  version: string;
}

export function isOpenApiExposed(deps: Pick<DocsDeps, 'config'>): boolean {
  return deps.config.environment.isDevelopment || deps.config.service.Api.ExposeOpenApi;
}

export function registerDocs(app: OpenAPIHono<AppEnv>, deps: DocsDeps): void {
  if (!isOpenApiExposed(deps)) return;
  let cached: unknown;
  const title = `${deps.config.service.Name} API`;
  app.get('/openapi/v1.json', (c) => {
    cached ??= buildDocument(app, deps.errors, {
      title,
      version: deps.version,
      apiKeyHeader: deps.config.service.Security.ApiKey.HeaderName,
    });
    return c.json(cached as object);
  });

  // Found once; the 4 MB script is read on first request and kept (it only changes with the package).
  const bundle = findScalarBundle();
  let script: Promise<Buffer> | undefined;
  app.get('/scalar', async (c) =>
    c.html(scalarPage('/openapi/v1.json', title, await bundle), 200, DOCS_PAGE_HEADERS),
  );
  app.get(SCALAR_SCRIPT_PATH, async (c) => {
    const found = await bundle;
    if (!found.path) return c.notFound();
    script ??= readFile(found.path);
    const bytes = await script;
    const immutable = c.req.query('v') === found.version;
    return c.body(new Uint8Array(bytes), 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  });
}
