import { describe, expect, it } from 'vitest';
import { defineOidcContract } from './modules/external-auth/oidc.contract.js';
import { json } from './testing/auth.js';
import { startTestServer } from './testing/index.js';

defineOidcContract('Sqlite', 'Memory');

describe('ExternalAuth kill-switch', () => {
  it('removes every route of the module and its operations from the contract', async () => {
    const t = await startTestServer({ env: { Service__Api__DisabledModules__0: 'ExternalAuth' } });
    try {
      expect((await t.request('/api/v1/auth/external/providers')).status).toBe(404);
      expect((await t.request('/api/v1/auth/external/corp/authorize')).status).toBe(404);
      const doc = await json(await t.request('/openapi/v1.json'));
      expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/v1/auth/external'))).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('documents the nine routes with x-module ExternalAuth when enabled', async () => {
    const t = await startTestServer();
    try {
      const doc = await json(await t.request('/openapi/v1.json'));
      const ops = Object.entries(doc.paths as Record<string, Record<string, { 'x-module'?: string }>>)
        .filter(([p]) => p.startsWith('/api/v1/auth/external'))
        .flatMap(([, methods]) => Object.values(methods));
      expect(ops).toHaveLength(9);
      expect(new Set(ops.map((o) => o['x-module']))).toEqual(new Set(['ExternalAuth']));
    } finally {
      await t.close();
    }
  });
});
