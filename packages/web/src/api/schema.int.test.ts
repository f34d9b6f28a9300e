/**
 * The committed client types equal what the built reference host serves now: a route change without
 * `pnpm gen:api` fails here (the lead regenerates at merge with that one command).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without declarations; its two exports are typed below.
import * as gen from '../../../../scripts/gen-api.mjs';

const { fetchHostDocument, renderSchema, SCHEMA_FILE } = gen as {
  fetchHostDocument: () => Promise<string>;
  renderSchema: (text: string) => Promise<string>;
  SCHEMA_FILE: string;
};

describe('generated client types', () => {
  it('schema.d.ts matches the contract of the built host (run `pnpm gen:api` when this fails)', async () => {
    const expected = await renderSchema(await fetchHostDocument());
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    expect(committed === expected, 'packages/web/src/api/schema.d.ts is stale: run `pnpm gen:api`').toBe(
      true,
    );
    expect(committed).toContain('"/api/v1/auth/login"');
  });
});
