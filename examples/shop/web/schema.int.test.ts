/**
 * The committed client types of the product page equal what openapi-typescript makes of the Shop module's
 * operations in the contract of a server with the module now: a changed shop route without `pnpm gen:api` fails
 * here, as packages/web/src/api/schema.int.test.ts fails for the host's own routes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without declarations; what it exports is typed below.
import * as gen from '../scripts/gen-api.mjs';

type Document = { paths: Record<string, Record<string, { 'x-module'?: string }>> };
const { fetchShopDocument, moduleDocument, renderSchema, SCHEMA_FILE } = gen as {
  fetchShopDocument: () => Promise<Document>;
  moduleDocument: (document: Document) => Document;
  renderSchema: (document: Document) => Promise<string>;
  SCHEMA_FILE: string;
};

describe("the Shop console's generated client types", () => {
  it("schema.d.ts matches the Shop module's contract (run `pnpm gen:api` when this fails)", async () => {
    const document = await fetchShopDocument();
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    expect(
      committed === (await renderSchema(document)),
      'examples/shop/web/schema.d.ts is stale: run `pnpm gen:api`',
    ).toBe(true);
    // The module's operations only (its Excel export among them), none of the host's.
    const shop = moduleDocument(document);
    expect(Object.keys(shop.paths).every((p) => p.startsWith('/api/v1/shop/'))).toBe(true);
    expect(Object.keys(shop.paths)).toContain('/api/v1/shop/product/export');
    expect(committed).toContain('"/api/v1/shop/product/export"');
    expect(committed).not.toContain('"/api/v1/auth/login"');
  });

  it("keeps the module's operations and the components they reach, in the document's order", () => {
    const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const json = (s: unknown) => ({ 200: { content: { 'application/json': { schema: s } } } });
    const document = {
      openapi: '3.1.0',
      paths: {
        '/api/v1/shop/thing': {
          get: { 'x-module': 'Shop', responses: json(schema('Thing')) },
          post: { 'x-module': 'Other', responses: json(schema('Unused')) },
        },
        '/api/v1/other': { get: { 'x-module': 'Other', responses: json(schema('Unused')) } },
      },
      components: {
        schemas: {
          Unused: { type: 'object' },
          Part: { type: 'string' },
          Thing: { type: 'object', properties: { part: schema('Part') } },
        },
        securitySchemes: { Bearer: { type: 'http', scheme: 'bearer' } },
      },
    };
    const shop = moduleDocument(document) as unknown as typeof document;
    expect(Object.keys(shop.paths)).toEqual(['/api/v1/shop/thing']);
    expect(Object.keys(shop.paths['/api/v1/shop/thing'])).toEqual(['get']);
    expect(Object.keys(shop.components.schemas)).toEqual(['Part', 'Thing']);
    expect(shop.components.securitySchemes).toEqual(document.components.securitySchemes);

    const dangling = { ...document, components: { schemas: { Thing: document.components.schemas.Thing } } };
    expect(() => moduleDocument(dangling)).toThrow('#/components/schemas/Part is not in the contract');
    expect(() => moduleDocument({ paths: { '/api/v1/other': document.paths['/api/v1/other'] } })).toThrow(
      'the contract documents no operation of Shop',
    );
  });
});
