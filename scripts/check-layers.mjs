#!/usr/bin/env node
// Checks the layer rule of the house style: workspace packages depend only on layers below them, and each
// package's tsconfig `references` repeat exactly its workspace dependencies (so a cycle breaks the type check).
// File-level import cycles are found by madge (see the `cycles` script).
import { existsSync, readFileSync } from 'node:fs';

const ORDER = ['kernel', 'data', 'security', 'logging', 'modules', 'http', 'server'];
// modules: the framework-free engines of the built-in modules, below HTTP (which holds their routes).
const RANK = { kernel: 0, data: 1, security: 2, logging: 2, modules: 3, http: 4, server: 5 };
const problems = [];

const read = (p) => JSON.parse(readFileSync(p, 'utf8'));
const units = [
  ...ORDER.map((n) => ({ name: n, dir: `packages/${n}`, rank: RANK[n] })),
  { name: 'host', dir: 'apps/host', rank: 6 },
  { name: 'example shop', dir: 'examples/shop', rank: 6 },
];

for (const unit of units) {
  const pkg = read(`${unit.dir}/package.json`);
  const svc = (record) =>
    Object.keys(record ?? {})
      .filter((d) => d.startsWith('@svc/'))
      .map((d) => d.slice(5));
  // Test-only dev dependencies must also point down, but only runtime dependencies are project references.
  const deps = svc(pkg.dependencies);
  const devDeps = svc(pkg.devDependencies);
  for (const dep of devDeps) {
    if (!(dep in RANK)) problems.push(`${unit.dir} depends on unknown workspace package @svc/${dep}`);
    else if (RANK[dep] >= unit.rank)
      problems.push(`${unit.dir} (${unit.name}) dev-depends on @svc/${dep}, which is not below it`);
  }
  for (const dep of deps) {
    if (!(dep in RANK)) problems.push(`${unit.dir} depends on unknown workspace package @svc/${dep}`);
    else if (RANK[dep] >= unit.rank)
      problems.push(`${unit.dir} (${unit.name}) depends on @svc/${dep}, which is not below it`);
  }
  const tsconfig = read(`${unit.dir}/tsconfig.json`);
  const refs = (tsconfig.references ?? []).map((r) => r.path.split('/').pop()).sort();
  const expected = [...deps].sort();
  if (JSON.stringify(refs) !== JSON.stringify(expected)) {
    problems.push(`${unit.dir}/tsconfig.json references [${refs}] but package.json depends on [${expected}]`);
  }
}

// The console (packages/web, apps/web) runs in a browser: it imports no server package at run time and no
// server code from its sources (tests may read the catalog of the kernel and the built-in modules; they are not shipped).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const sources = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : /\.(ts|vue)$/.test(e.name) && !/\.test\.ts$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
for (const dir of ['packages/web', 'apps/web']) {
  const pkg = read(`${dir}/package.json`);
  for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies })) {
    if (dep.startsWith('@svc/') && dep !== '@svc/web')
      problems.push(`${dir} depends on the server package ${dep}`);
  }
  for (const file of sources(`${dir}/src`)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](@svc\/[\w-]+)/g)) {
      if (m[1] !== '@svc/web') problems.push(`${file} imports server code (${m[1]})`);
    }
    if (/from\s+['"](\.\.\/)+(packages|apps)\/(kernel|data|security|logging|http|server|host)\b/.test(text))
      problems.push(`${file} reaches into a server package by path`);
  }
}

// The worked examples are a user's modules: they use the public API of the meta-package alone (`@svc/server` and
// its subpaths), as an outside team would, never another @svc package or a workspace file by path.
for (const dir of ['examples/shop']) {
  const pkg = read(`${dir}/package.json`);
  if (pkg.private !== true)
    problems.push(`${dir}/package.json must be private (an example is never published)`);
  for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })) {
    if (dep.startsWith('@svc/') && dep !== '@svc/server')
      problems.push(`${dir} depends on ${dep}; an example uses @svc/server only`);
  }
  const tests = (d) =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? tests(join(d, e.name)) : /\.test\.ts$/.test(e.name) ? [join(d, e.name)] : [],
    );
  const configs = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));
  // Its scripts too (the generator of its console's client types starts a server as a host would).
  const scripts = existsSync(`${dir}/scripts`)
    ? readdirSync(`${dir}/scripts`)
        .filter((f) => /\.m?[jt]s$/.test(f))
        .map((f) => join(dir, 'scripts', f))
    : [];
  for (const file of [...sources(`${dir}/src`), ...tests(`${dir}/src`), ...configs, ...scripts]) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](@svc\/[\w-]+)/g)) {
      if (m[1] !== '@svc/server') problems.push(`${file} imports ${m[1]}; an example uses @svc/server only`);
    }
    if (/from\s+['"](\.\.\/)+(packages|apps)\//.test(text))
      problems.push(`${file} reaches into the workspace by path`);
  }
}

if (problems.length > 0) {
  console.error(`Layer check failed:\n  - ${problems.join('\n  - ')}`);
  process.exit(1);
}
console.log(
  `Layer check: ${units.length} units follow kernel <- data <- security, logging <- modules <- http <- server <- host, examples.`,
);
