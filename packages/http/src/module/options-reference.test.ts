import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_MODULES } from '../modules/index.js';
import { configurationTable, describeConfiguration } from './options-reference.js';

describe('docs/configuration.md configuration reference', () => {
  it('equals the option declarations of the kernel and the built-in modules (regenerate with scripts/config-reference.mjs)', () => {
    const doc = readFileSync(new URL('../../../../docs/configuration.md', import.meta.url), 'utf8');
    const table =
      /<!-- config-reference:start -->\n([\s\S]*?)<!-- config-reference:end -->/.exec(doc)?.[1] ?? '';
    expect(table.trim()).toBe(configurationTable(describeConfiguration(BUILT_IN_MODULES)));
  });

  it('lists each module section once, under the module that declares it', () => {
    const keys = describeConfiguration(BUILT_IN_MODULES).map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const section of ['Upload', 'Import', 'ExternalAuth', 'Jobs', 'Realtime'])
      expect(
        keys.some((k) => k.startsWith(`Service:${section}:`)),
        section,
      ).toBe(true);
  });
});
