/**
 * `GET /openapi/v1.json` and `GET /scalar`: the contract and its reading UI. Mounted in Development, elsewhere
 * only with `Service:Api:ExposeOpenApi` (404 otherwise). Neither appears in the contract itself.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../context.js';
import type { HttpDeps } from '../../deps.js';
import { buildDocument } from '../../openapi/document.js';

/** Scalar's standalone bundle, pinned so the page does not change under us. */
export const SCALAR_BUNDLE =
  'https://cdn.jsdelivr.net/npm/@scalar/api-reference@1.72.1/dist/browser/standalone.js';

export function scalarPage(specUrl: string, title: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body>
<script id="api-reference" data-url="${specUrl}"></script>
<script src="${SCALAR_BUNDLE}"></script>
</body>
</html>
`;
}

export function isOpenApiExposed(deps: Pick<HttpDeps, 'config'>): boolean {
  return deps.config.environment.isDevelopment || deps.config.service.Api.ExposeOpenApi;
}

export function registerDocs(app: OpenAPIHono<AppEnv>, deps: HttpDeps): void {
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
  app.get('/scalar', (c) => c.html(scalarPage('/openapi/v1.json', title)));
}
