/**
 * The OpenAPI 3.1 contract, generated from the route definitions and completed with what zod cannot say:
 * the `ErrorCode` schema (int32, no closed enum, three index-aligned extension arrays over every registered
 * code, consumer codes included) and the `ApiKey`/`Bearer` security schemes.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { ErrorCodeRegistry } from '@svc/kernel';
import type { AppEnv } from '../context.js';
import { exampleOf } from './examples.js';

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
        'Every JSON answer is the envelope `{code, msgKey, data, args?}`; business failures are HTTP 200 with a non-zero `code` and `data` null, so check `code` before reading `data`.',
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
    },
    servers: [{ url: '/', description: 'The host serving this document' }],
  });
  declareTags(doc);
  addExamples(doc);
  doc.components ??= {};
  const components = doc.components;
  components.schemas ??= {};
  const schemas = components.schemas;
  schemas.ErrorCode = errorCodeSchema(registry) as (typeof schemas)[string];
  const schemes = {
    Bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    ApiKey: { type: 'apiKey', in: 'header', name: options.apiKeyHeader },
  } as const;
  const used = new Set<keyof typeof schemes>();
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item ?? {}) as Record<string, unknown>[]) {
      if (!op || typeof op !== 'object' || !('x-auth' in op)) continue;
      const auth = op['x-auth'];
      const either = Array.isArray(op['x-auth-schemes']);
      if (either) op.security = [{ Bearer: [] }, { ApiKey: [] }];
      else if (auth === 'apikey') op.security = [{ ApiKey: [] }];
      else if (auth === 'authenticated' || auth === 'permission') op.security = [{ Bearer: [] }];
      else op.security = [];
      for (const requirement of op.security as Record<string, unknown>[]) {
        for (const name of Object.keys(requirement)) used.add(name as keyof typeof schemes);
      }
    }
  }
  // Only the schemes some operation uses (API keys appear once a host registers a key route).
  components.securitySchemes = Object.fromEntries([...used].sort().map((name) => [name, schemes[name]]));
  return doc;
}

/** What each area does, for the top-level `tags` (an undeclared tag still appears, with a generic line). */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Health: 'Liveness and readiness probes for orchestrators and load balancers.',
  Auth: 'Password and SMS login, second-factor steps, refresh, logout and the session check.',
  Personal: 'The signed-in user: profile, password, phone, menus, permissions and own sessions.',
  Meta: 'Facts about the service itself, such as the error-code catalog.',
  'External login':
    'Login through OpenID Connect providers: providers, authorize and callback, ticket exchange, pending links and bindings.',
  MFA: 'Captcha, TOTP binding, recovery codes, re-authentication and the high-sensitivity list.',
  Users: 'User accounts: page, create, update, enable, reset password, delete.',
  Roles: 'Roles with their menus, users and data scope.',
  Menus: 'The menu and button tree that carries permission codes.',
  Organisations: 'The organisation tree that data scope is built on.',
  Positions: 'Positions users may hold.',
  Sessions: 'Online sessions and forced logout.',
  'Recycle bin': 'Soft-deleted rows: page, restore and purge.',
  Config: 'Runtime configuration keys, site information and the password policy.',
  Dict: 'Dictionaries: types and their items.',
  Cache: 'Cache actions: flush authentication, dictionaries and configuration.',
  Log: 'Operation, login and exception logs.',
  Monitor: 'Server and process figures.',
  Modules:
    'Portal modules (apps) that group top-level menus; the caller sees those reachable through grants.',
  Dashboard: "Summary figures and the 7-day login trend within the caller's data scope.",
  Notice: 'Notices and announcements: publish, list, delete; my inbox, unread count and read state.',
  File: 'Uploads (single and chunked with resume and instant upload), downloads and signed view links.',
  Import:
    'Excel user import (template, preview, validate, error report, commit) and the user and operation-log exports.',
  Jobs: 'Scheduled jobs: cron, interval and one-shot triggers, runs, kill, run log and dashboard.',
};

type Operation = Record<string, unknown> & { tags?: string[] };

function operationsOf(doc: OpenApiDocument): Operation[] {
  const ops: Operation[] = [];
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item ?? {})) if (op && typeof op === 'object') ops.push(op as Operation);
  }
  return ops;
}

/** Declares every tag used by an operation at the top level, in first-use order, with its description. */
function declareTags(doc: OpenApiDocument): void {
  const names: string[] = [];
  for (const op of operationsOf(doc))
    for (const tag of op.tags ?? []) if (!names.includes(tag)) names.push(tag);
  doc.tags = names.map((name) => ({
    name,
    description: TAG_DESCRIPTIONS[name] ?? `Operations of the ${name} area.`,
  }));
}

/** Puts a schema-derived example on every JSON request body and every JSON response that has none. */
function addExamples(doc: OpenApiDocument): void {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, Record<string, unknown>>;
  const resolve = (ref: string) => schemas[ref.replace('#/components/schemas/', '')];
  const media = (content: unknown) =>
    (content as Record<string, { schema?: unknown; example?: unknown }> | undefined)?.['application/json'];
  for (const op of operationsOf(doc)) {
    const body = media((op.requestBody as { content?: unknown } | undefined)?.content);
    if (body?.schema && body.example === undefined) body.example = exampleOf(body.schema, resolve);
    for (const response of Object.values((op.responses ?? {}) as Record<string, { content?: unknown }>)) {
      const json = media(response?.content);
      if (json?.schema && json.example === undefined) json.example = exampleOf(json.schema, resolve);
    }
  }
}
