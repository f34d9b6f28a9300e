import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeSection } from './parse.js';
import { serviceSchema } from './schema.js';

const esc = (s: string) => s.replaceAll('|', '\\|');

describe('docs/configuration.md configuration reference', () => {
  it('equals the option declarations (regenerate with scripts/config-reference.mjs)', () => {
    const readme = readFileSync(new URL('../../../../docs/configuration.md', import.meta.url), 'utf8');
    const section =
      /<!-- config-reference:start -->\n([\s\S]*?)<!-- config-reference:end -->/.exec(readme)?.[1] ?? '';
    const expected = [
      '| Key | Default | Form | Environment variable | Meaning |',
      '|---|---|---|---|---|',
      ...describeSection(serviceSchema, 'Service').map(
        (r) =>
          `| \`${r.key}\` | \`${esc(r.defaultValue)}\` | ${esc(r.form)} | \`${r.envVar}\` | ${esc(r.description)} |`,
      ),
    ].join('\n');
    expect(section.trim()).toBe(expected);
  });
});
