/**
 * The contract a generated client can trust: the document the host serves passes Redocly's `recommended`
 * ruleset with no error and no warning (examples are validated against their schemas there), every operation has
 * a unique readable `operationId`, tags are declared with descriptions, `servers` is present, each operation names
 * its module, and every HTTP 200 envelope is documented as success-or-error so `data` cannot be read unchecked.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/index.js';

interface Operation {
  operationId?: string;
  tags?: string[];
  'x-module'?: string;
  requestBody?: { content?: Record<string, { example?: unknown }> };
  responses: Record<
    string,
    { content?: Record<string, { schema?: { oneOf?: unknown[]; anyOf?: unknown[] }; example?: unknown }> }
  >;
}
interface Doc {
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
}

describe('OpenAPI contract quality', () => {
  let t: TestServer;
  let text: string;
  let doc: Doc;
  const ops: [string, Operation][] = [];
  beforeAll(async () => {
    t = await startTestServer();
    text = await (await t.request('/openapi/v1.json')).text();
    doc = JSON.parse(text) as Doc;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) ops.push([`${method.toUpperCase()} ${path}`, op]);
    }
  });
  afterAll(() => t?.close());

  it("passes Redocly's recommended ruleset with no problem", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: text, absoluteRef: 'openapi.json', config });
    const shown = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    // The one accepted warning: the probes answer plain text to orchestrators and have no 4XX answer to document.
    const accepted = (line: string) => /^warn operation-4xx-response: .* at #\/paths\/~1health/.test(line);
    expect(shown.filter((line) => !accepted(line))).toEqual([]);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  });

  it('gives every operation a unique readable operationId, a declared tag and its module', () => {
    expect(ops.length).toBeGreaterThan(90);
    const ids = ops.map(([, op]) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const declared = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description]));
    for (const [name, op] of ops) {
      for (const tag of op.tags ?? []) expect(declared.get(tag), `${name} tag ${tag}`).toBeTruthy();
      expect(op['x-module'], name).toBeTruthy();
    }
    expect(doc.servers?.length).toBeGreaterThan(0);
    const login = doc.paths['/api/v1/auth/login']?.post;
    expect(login?.operationId).toBe('postAuthLogin');
  });

  it('documents each 200 envelope as success or error, with examples', () => {
    for (const [name, op] of ops) {
      const ok = op.responses['200']?.content?.['application/json'];
      const content = op.responses['200']?.content ?? {};
      // Probes answer text; downloads answer bytes, or the error envelope as JSON.
      if (!ok || Object.keys(content).length > 1) continue;
      // Browser redirects (external login) answer 200 only with the error envelope of a malformed path.
      if (op.responses['302']) continue;
      expect(ok.schema?.anyOf ?? ok.schema?.oneOf, name).toHaveLength(2);
      expect(ok.example, name).toBeDefined();
      const body = op.requestBody?.content?.['application/json'];
      if (body) expect(body.example, name).toBeDefined();
    }
  });

  it('makes a generated client check the envelope before it reads data (openapi-typescript, strict tsc)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-client-'));
    try {
      writeFileSync(join(dir, 'api.d.ts'), astToString(await openapiTS(text)));
      const answer =
        "import type { paths } from './api.js';\n" +
        "declare const r: paths['/api/v1/auth/login']['post']['responses'][200]['content']['application/json'];\n";
      // Reading the token after a wrong password would crash at run time: the types must refuse it.
      writeFileSync(join(dir, 'unchecked.ts'), `${answer}export const token: string = r.data.accessToken;\n`);
      writeFileSync(
        join(dir, 'checked.ts'),
        `${answer}export const token: string | undefined = r.data === null ? undefined : r.data.accessToken;\n` +
          'export const code: number = r.code;\n',
      );
      const check = (file: string) =>
        ts
          .getPreEmitDiagnostics(
            ts.createProgram([join(dir, file)], {
              strict: true,
              noEmit: true,
              module: ts.ModuleKind.NodeNext,
              moduleResolution: ts.ModuleResolutionKind.NodeNext,
              target: ts.ScriptTarget.ES2022,
              skipLibCheck: true,
              types: [],
            }),
          )
          .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(check('checked.ts')).toEqual([]);
      const unchecked = check('unchecked.ts');
      expect(unchecked.join('\n')).toMatch(/possibly 'null'/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
