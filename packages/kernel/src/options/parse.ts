/**
 * Parses a raw configuration tree against a schema: keys match case-insensitively, every leaf is validated
 * once, and every bad value is reported with its full key (`Service:Database:DbType`) and expected form.
 * Unknown keys are returned as warnings so that a typo does not pass silently.
 */
import { asArray, type Infer, isRecord, type Leaf, type ListOf, type Node, type Section } from './leaf.js';

export class OptionsError extends Error {
  override readonly name = 'OptionsError';
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.problems = problems;
  }
}

export interface ParseOutcome<T> {
  value: T;
  warnings: string[];
}

/** Parses `raw` (the content of the section at `path`) into typed options; throws `OptionsError`. */
export function parseSection<S extends Section>(
  schema: S,
  raw: unknown,
  path: string,
): ParseOutcome<Infer<S>> {
  const problems: string[] = [];
  const warnings: string[] = [];
  const value = walkSection(schema, raw, path, problems, warnings);
  if (problems.length > 0) throw new OptionsError(problems);
  return { value: value as Infer<S>, warnings };
}

function walk(node: Node, raw: unknown, path: string, problems: string[], warnings: string[]): unknown {
  if (node.kind === 'section') return walkSection(node, raw, path, problems, warnings);
  if (node.kind === 'list') return walkList(node, raw, path, problems, warnings);
  return walkLeaf(node, raw, path, problems);
}

function walkLeaf(leaf: Leaf<unknown>, raw: unknown, path: string, problems: string[]): unknown {
  if (raw === undefined) return leaf.defaultValue;
  const result = leaf.parse(raw);
  if (result.ok) return result.value;
  problems.push(`${path}: expected ${result.expected}, got ${JSON.stringify(raw)}`);
  return leaf.defaultValue;
}

function walkSection(section: Section, raw: unknown, path: string, problems: string[], warnings: string[]) {
  if (raw !== undefined && raw !== null && !isRecord(raw)) {
    problems.push(`${path}: expected a section, got ${JSON.stringify(raw)}`);
    raw = undefined;
  }
  const given = (raw ?? {}) as Record<string, unknown>;
  const byLower = new Map(Object.keys(given).map((k) => [k.toLowerCase(), k]));
  const out: Record<string, unknown> = {};
  for (const [name, child] of Object.entries(section.children)) {
    const actual = byLower.get(name.toLowerCase());
    if (actual !== undefined) byLower.delete(name.toLowerCase());
    out[name] = walk(
      child,
      actual === undefined ? undefined : given[actual],
      `${path}:${name}`,
      problems,
      warnings,
    );
  }
  for (const unknown of byLower.values())
    warnings.push(`${path}:${unknown} is not a known key and was ignored.`);
  return out;
}

function walkList(list: ListOf<unknown>, raw: unknown, path: string, problems: string[], warnings: string[]) {
  if (raw === undefined || raw === null) return [];
  const items = asArray(raw);
  if (!items) {
    problems.push(`${path}: expected a list (JSON array or ${path}:0, ${path}:1, …)`);
    return [];
  }
  return items.map((item, i) => walkSection(list.item, item, `${path}:${i}`, problems, warnings));
}

/** One row of the configuration reference. */
export interface OptionDoc {
  key: string;
  envVar: string;
  defaultValue: string;
  form: string;
  description: string;
}

/** Flattens a schema into documentation rows. */
export function describeSection(section: Section, path: string): OptionDoc[] {
  const rows: OptionDoc[] = [];
  for (const [name, child] of Object.entries(section.children)) {
    const key = `${path}:${name}`;
    if (child.kind === 'section') rows.push(...describeSection(child, key));
    else if (child.kind === 'list') rows.push(...describeSection(child.item, `${key}:<i>`));
    else
      rows.push({
        key,
        envVar: key.replaceAll(':', '__').replace('<i>', '0'),
        defaultValue: JSON.stringify(child.defaultValue),
        form: child.form,
        description: child.description,
      });
  }
  return rows;
}
