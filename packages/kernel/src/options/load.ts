/**
 * Configuration sources, later wins (contract §1): built-in defaults < host defaults given in code <
 * `appsettings.json` < `appsettings.{Environment}.json` (both optional, in the content root) < environment
 * variables (`Service__Security__LoginLock__MaxFailCount`, `__` = `:`, arrays by index segments).
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { isRecord } from './leaf.js';
import { OptionsError, parseSection } from './parse.js';
import { type LoggingOptions, loggingSchema, type ServiceOptions, serviceSchema } from './schema.js';

/** Where and how the process runs. */
export interface HostEnvironment {
  /** `ASPNETCORE_ENVIRONMENT`; unset means `Production` (the safe default). */
  name: string;
  isDevelopment: boolean;
  isProduction: boolean;
  /** `ASPNETCORE_CONTENTROOT`, else the host's folder: `./data/...` and upload roots resolve against it. */
  contentRoot: string;
  /** `ASPNETCORE_URLS`, else `http://0.0.0.0:$PORT`, else `http://localhost:5100`. */
  url: string;
}

export interface Configuration {
  environment: HostEnvironment;
  service: ServiceOptions;
  logging: LoggingOptions;
  /** Unknown keys and other non-fatal findings, to be logged at start-up. */
  warnings: string[];
  /**
   * The raw value of a module's own section `Service:<name>` (case-insensitive; a nested one as a path,
   * `Security:Passkey`), as files, the environment and host defaults merged it; undefined when nothing sets it.
   * Modules parse it with their own schema.
   */
  section(name: string): unknown;
}

export interface LoadConfigurationInput {
  /** Content root used when `ASPNETCORE_CONTENTROOT` is not set. @default process.cwd() */
  contentRoot?: string;
  /** The environment variables. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /** Host defaults in code, as a raw tree `{ Service: {...}, Logging: {...} }`; configuration files and the environment override them. */
  defaults?: Record<string, unknown>;
  /**
   * Sections under `Service` that modules own and parse themselves (not parsed or warned about here), nested ones
   * as paths (`Security:Passkey`).
   */
  moduleSections?: readonly string[];
}

type Tree = Record<string, unknown>;

/** Loads, merges and validates the configuration. Throws `OptionsError` naming every bad key. */
export function loadConfiguration(input: LoadConfigurationInput = {}): Configuration {
  const env = input.env ?? process.env;
  const name = env.ASPNETCORE_ENVIRONMENT?.trim() || 'Production';
  const contentRoot = resolve(env.ASPNETCORE_CONTENTROOT?.trim() || input.contentRoot || process.cwd());
  const environment: HostEnvironment = {
    name,
    isDevelopment: name.toLowerCase() === 'development',
    isProduction: name.toLowerCase() === 'production',
    contentRoot,
    url: listenUrl(env),
  };

  const tree: Tree = {};
  if (input.defaults) mergeInto(tree, input.defaults);
  mergeInto(tree, readJsonFile(join(contentRoot, 'appsettings.json')));
  mergeInto(tree, readJsonFile(join(contentRoot, `appsettings.${name}.json`)));
  mergeInto(tree, fromEnvironment(env));

  const problems: string[] = [];
  const warnings: string[] = [];
  const parse = <T>(fn: () => { value: T; warnings: string[] }): T | undefined => {
    try {
      const out = fn();
      warnings.push(...out.warnings);
      return out.value;
    } catch (error) {
      if (error instanceof OptionsError) problems.push(...error.problems);
      else throw error;
      return undefined;
    }
  };
  const { kernelTree, modulesTree } = splitModuleSections(pick(tree, 'Service'), input.moduleSections ?? []);
  const service = parse(() => parseSection(serviceSchema, kernelTree, 'Service'));
  const logging = parse(() => parseSection(loggingSchema, pick(tree, 'Logging'), 'Logging'));
  if (problems.length > 0 || !service || !logging) throw new OptionsError(problems);
  return {
    environment,
    service,
    logging,
    warnings,
    section: (name) => modulesTree[name.toLowerCase()],
  };
}

/**
 * Takes the sections modules own out of the `Service` tree (a nested one, `Security:Passkey`, out of its parent),
 * so the kernel's schema neither parses nor warns about them; each is kept under its path in lower case.
 */
function splitModuleSections(
  serviceTree: unknown,
  owned: readonly string[],
): { kernelTree: unknown; modulesTree: Tree } {
  const modulesTree: Tree = {};
  if (!isRecord(serviceTree) || owned.length === 0) return { kernelTree: serviceTree, modulesTree };
  const kernelTree: Tree = { ...serviceTree };
  for (const path of owned) {
    const parts = path.split(':');
    let parent: Tree = kernelTree;
    for (const [i, part] of parts.entries()) {
      const key = findKey(parent, part);
      if (key === undefined) break;
      if (i === parts.length - 1) {
        modulesTree[path.toLowerCase()] = parent[key];
        delete parent[key];
        break;
      }
      const child = parent[key];
      if (!isRecord(child)) break;
      // Copied on the way down: the merged tree stays as it was read.
      parent[key] = { ...child };
      parent = parent[key] as Tree;
    }
  }
  return { kernelTree, modulesTree };
}

/** Resolves a configured path against the content root. */
export function resolveContentPath(contentRoot: string, path: string): string {
  return isAbsolute(path) ? path : resolve(contentRoot, path);
}

function listenUrl(env: Readonly<Record<string, string | undefined>>): string {
  const urls = env.ASPNETCORE_URLS?.split(';')[0]?.trim();
  if (urls) return urls;
  const port = env.PORT?.trim();
  if (port) return `http://0.0.0.0:${port}`;
  return 'http://localhost:5100';
}

function pick(tree: Tree, key: string): unknown {
  const actual = Object.keys(tree).find((k) => k.toLowerCase() === key.toLowerCase());
  return actual === undefined ? undefined : tree[actual];
}

function readJsonFile(path: string): Tree {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  try {
    const parsed: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    if (!isRecord(parsed)) throw new Error('the top level is not an object');
    return parsed;
  } catch (error) {
    throw new OptionsError([`${path}: not valid JSON (${(error as Error).message})`]);
  }
}

/** `Service__A__B=v` → `{ Service: { A: { B: 'v' } } }`; only the `Service` and `Logging` roots are read. */
export function fromEnvironment(env: Readonly<Record<string, string | undefined>>): Tree {
  const tree: Tree = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    const segments = name.split('__');
    const root = segments[0]?.toLowerCase();
    if (segments.length < 2 || (root !== 'service' && root !== 'logging')) continue;
    if (segments.some((s) => s === '')) continue;
    let node = tree;
    for (const segment of segments.slice(0, -1)) {
      const key = findKey(node, segment) ?? segment;
      const next = node[key];
      if (isRecord(next)) {
        node = next;
      } else {
        const created: Tree = {};
        node[key] = created;
        node = created;
      }
    }
    const last = segments[segments.length - 1] as string;
    node[findKey(node, last) ?? last] = value;
  }
  return tree;
}

/** Deep merge where keys match case-insensitively and arrays merge by index, as ASP.NET configuration does. */
export function mergeInto(target: Tree, source: unknown): void {
  if (!isRecord(source) && !Array.isArray(source)) return;
  const entries = Array.isArray(source)
    ? source.map((v, i) => [String(i), v] as const)
    : Object.entries(source);
  for (const [key, value] of entries) {
    const actual = findKey(target, key) ?? key;
    const current = target[actual];
    if (isRecord(value) || Array.isArray(value)) {
      const node: Tree = isRecord(current) ? current : {};
      mergeInto(node, value);
      target[actual] = node;
    } else {
      target[actual] = value;
    }
  }
}

function findKey(node: Tree, key: string): string | undefined {
  const lower = key.toLowerCase();
  return Object.keys(node).find((k) => k.toLowerCase() === lower);
}
