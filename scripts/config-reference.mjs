#!/usr/bin/env node
// Prints the configuration reference (every key, its default, its environment-variable form) as a Markdown
// table, from the one declaration in packages/kernel/src/options/schema.ts. Needs `pnpm build` first.
// The docs/configuration.md section between the `config-reference` markers is this output; a test keeps them equal.
import { describeSection, serviceSchema } from '../packages/kernel/dist/index.js';

const rows = describeSection(serviceSchema, 'Service');
const esc = (s) => s.replaceAll('|', '\\|');
console.log('| Key | Default | Form | Environment variable | Meaning |');
console.log('|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| \`${r.key}\` | \`${esc(r.defaultValue)}\` | ${esc(r.form)} | \`${r.envVar}\` | ${esc(r.description)} |`,
  );
}
