/**
 * The public packages are publishable as they are: metadata a registry and a consumer need, a LICENSE and a
 * README in each, `main`/`types` fallbacks for old resolvers, caret ranges for third-party runtime dependencies
 * (drizzle stays exact), a build before packing, no build-info or declaration maps in the tarball; and
 * `changeset version` moves all of them in lockstep.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DRIVERS } from '@svc/data';
import { MODULE_LIBRARIES, SCALAR_RANGE } from '@svc/http';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PUBLIC = ['kernel', 'data', 'security', 'logging', 'modules', 'http', 'server', 'web'] as const;

interface Manifest {
  name: string;
  version: string;
  main?: string;
  types?: string;
  files?: string[];
  scripts?: Record<string, string>;
  publishConfig?: { access?: string };
  repository?: { url?: string; directory?: string };
  homepage?: string;
  bugs?: { url?: string };
  keywords?: string[];
  exports: Record<string, { types: string; default: string }>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const manifest = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest;

/** The workspace catalog: `name: range` lines under `catalog:`. */
function catalog(): Map<string, string> {
  const text = readFileSync(join(ROOT, 'pnpm-workspace.yaml'), 'utf8');
  const block = text.split(/^catalog:\s*$/m)[1]?.split(/^\S/m)[0] ?? '';
  const entries = new Map<string, string>();
  for (const line of block.split('\n')) {
    const match = /^\s+"?([^":]+)"?:\s*(\S+)/.exec(line);
    if (match?.[1] && match[2]) entries.set(match[1], match[2]);
  }
  return entries;
}

describe('public packages', () => {
  const ranges = catalog();

  for (const name of PUBLIC) {
    const dir = `packages/${name}`;
    it(`@svc/${name} carries what a registry and a consumer need`, () => {
      const m = manifest(dir);
      expect(m.name).toBe(`@svc/${name}`);
      expect(m.publishConfig?.access).toBe('public');
      expect(m.repository?.url).toMatch(/^git\+https:\/\//);
      expect(m.repository?.directory).toBe(dir);
      expect(m.homepage).toBeTruthy();
      expect(m.bugs?.url).toBeTruthy();
      expect(m.keywords?.length).toBeGreaterThan(0);
      expect(m.main).toBe(m.exports['.']?.default);
      expect(m.types).toBe(m.exports['.']?.types);
      expect(m.scripts?.prepack).toMatch(/tsc -b/); // vue-tsc -b for the console
      expect(m.files).toEqual(
        expect.arrayContaining(['dist', '!dist/**/*.tsbuildinfo', '!dist/**/*.d.ts.map']),
      );
      expect(existsSync(join(ROOT, dir, 'LICENSE'))).toBe(true);
      expect(readFileSync(join(ROOT, dir, 'LICENSE'), 'utf8')).toBe(
        readFileSync(join(ROOT, 'LICENSE'), 'utf8'),
      );
      expect(readFileSync(join(ROOT, dir, 'README.md'), 'utf8')).toContain(`# @svc/${name}`);
    });

    it(`@svc/${name} takes caret ranges for third-party runtime dependencies (drizzle exact)`, () => {
      const m = manifest(dir);
      const deps = { ...m.dependencies, ...m.peerDependencies };
      for (const [dep, spec] of Object.entries(deps)) {
        if (dep.startsWith('@svc/')) {
          expect(spec, dep).toBe('workspace:*');
          continue;
        }
        const range = spec === 'catalog:' ? ranges.get(dep) : spec;
        if (dep === 'drizzle-orm') expect(range, dep).toBe('1.0.0-rc.5');
        else expect(range, dep).toMatch(/^\^\d/);
      }
    });
  }

  it('peer ranges are the ranges start-up accepts (drivers, module libraries, the API reference bundle)', () => {
    const peers = {
      ...manifest('packages/data').peerDependencies,
      ...manifest('packages/modules').peerDependencies,
      ...manifest('packages/http').peerDependencies,
    };
    const accepted: Record<string, string> = {
      ...Object.fromEntries(Object.values(DRIVERS).map((d) => [d.package, d.range])),
      ...Object.fromEntries(MODULE_LIBRARIES.map((l) => [l.package, l.range])),
      '@scalar/api-reference': SCALAR_RANGE,
    };
    expect(Object.keys(peers).sort()).toEqual(Object.keys(accepted).sort());
    for (const [name, spec] of Object.entries(peers)) {
      expect(spec === 'catalog:' ? ranges.get(name) : spec, name).toBe(accepted[name]);
    }
  });

  it('changeset version moves every public package in lockstep (fixed group)', () => {
    const work = mkdtempSync(join(tmpdir(), 'svc-changeset-'));
    try {
      cpSync(join(ROOT, 'package.json'), join(work, 'package.json'));
      cpSync(join(ROOT, 'pnpm-workspace.yaml'), join(work, 'pnpm-workspace.yaml'));
      mkdirSync(join(work, '.changeset'));
      cpSync(join(ROOT, '.changeset', 'config.json'), join(work, '.changeset', 'config.json'));
      for (const dir of [...PUBLIC.map((p) => `packages/${p}`), 'apps/host', 'apps/web', 'examples/shop']) {
        mkdirSync(join(work, dir), { recursive: true });
        cpSync(join(ROOT, dir, 'package.json'), join(work, dir, 'package.json'));
      }
      // One change to the lowest layer only.
      writeFileSync(
        join(work, '.changeset', 'kernel-only.md'),
        "---\n'@svc/kernel': minor\n---\n\nA change.\n",
      );
      const before = manifest('packages/kernel').version;
      execFileSync(join(ROOT, 'node_modules', '.bin', 'changeset'), ['version'], {
        cwd: work,
        stdio: 'pipe',
      });
      const versions = PUBLIC.map(
        (p) =>
          (JSON.parse(readFileSync(join(work, 'packages', p, 'package.json'), 'utf8')) as Manifest).version,
      );
      expect(new Set(versions).size).toBe(1);
      expect(versions[0]).not.toBe(before);
      // The worked example is private and ignored: never versioned, never published.
      const example = JSON.parse(readFileSync(join(work, 'examples/shop/package.json'), 'utf8')) as Manifest;
      expect(example.version).toBe(manifest('examples/shop').version);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
