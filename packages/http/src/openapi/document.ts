/**
 * The OpenAPI 3.1 contract, generated from the route definitions and completed with what zod cannot say:
 * the `ErrorCode` schema (int32, no closed enum, three index-aligned extension arrays over every registered
 * code, consumer codes included) and the `ApiKey`/`Bearer` security schemes.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ErrorCodeRegistry } from '@svc/kernel';
import type { AppEnv } from '../context.js';

export interface DocumentOptions {
  title: string;
  version: string;
  apiKeyHeader: string;
}

type OpenApiDocument = ReturnType<OpenAPIHono<AppEnv>['getOpenAPI31Document']>;

/** The `ErrorCode` component: integer int32, open set, documented by index-aligned arrays. */
export function errorCodeSchema(registry: ErrorCodeRegistry) {
  const catalog = registry.catalog();
  return {
    type: 'integer',
    format: 'int32',
    description:
      'Envelope code: 0 = success. New codes may appear; unknown codes translate as `error.code.<code>`.',
    'x-enum-values': catalog.map((e) => e.code),
    'x-enum-varnames': catalog.map((e) => e.name),
    'x-msg-keys': catalog.map((e) => e.msgKey),
  };
}

export function buildDocument(
  app: OpenAPIHono<AppEnv>,
  registry: ErrorCodeRegistry,
  options: DocumentOptions,
): OpenApiDocument {
  const doc = app.getOpenAPI31Document({
    openapi: '3.1.0',
    info: {
      title: options.title,
      version: options.version,
      description:
        'Every JSON answer is the envelope `{code, msgKey, data, args?}`; business failures are HTTP 200.',
    },
  });
  doc.components ??= {};
  const components = doc.components;
  components.schemas ??= {};
  const schemas = components.schemas;
  schemas.ErrorCode = errorCodeSchema(registry) as (typeof schemas)[string];
  components.securitySchemes = {
    Bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    ApiKey: { type: 'apiKey', in: 'header', name: options.apiKeyHeader },
  };
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item ?? {}) as Record<string, unknown>[]) {
      if (!op || typeof op !== 'object' || !('x-auth' in op)) continue;
      const auth = op['x-auth'];
      const either = Array.isArray(op['x-auth-schemes']);
      if (either) op.security = [{ Bearer: [] }, { ApiKey: [] }];
      else if (auth === 'apikey') op.security = [{ ApiKey: [] }];
      else if (auth === 'authenticated' || auth === 'permission') op.security = [{ Bearer: [] }];
      else op.security = [];
    }
  }
  return doc;
}
