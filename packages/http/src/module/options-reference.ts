/**
 * The configuration reference of a server: every key of the kernel's schema, then the keys of each module that
 * declares its options with the configuration's own leaves (`moduleOptions`), with their defaults, forms and
 * environment-variable names. docs/configuration.md holds this table for the built-in modules
 * (`node scripts/config-reference.mjs`); a test keeps them equal.
 */
import { describeSection, type OptionDoc, serviceSchema } from '@svc/kernel';
import type { AnyModule } from './define.js';

/** The rows of the kernel's keys and of the declared options of `modules`, in the order given. */
export function describeConfiguration(modules: readonly AnyModule[]): OptionDoc[] {
  return [
    ...describeSection(serviceSchema, 'Service'),
    ...modules.flatMap((m) =>
      m.options && 'declared' in m.options
        ? describeSection(m.options.declared, `Service:${m.options.section}`)
        : [],
    ),
  ];
}

const cell = (text: string) => text.replaceAll('|', '\\|');

/** The rows as a Markdown table. */
export function configurationTable(rows: readonly OptionDoc[]): string {
  return [
    '| Key | Default | Form | Environment variable | Meaning |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| \`${r.key}\` | \`${cell(r.defaultValue)}\` | ${cell(r.form)} | \`${r.envVar}\` | ${cell(r.description)} |`,
    ),
  ].join('\n');
}
