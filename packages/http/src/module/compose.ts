/**
 * The composition root of modules. `planModules` reads the definitions before anything is built: which modules
 * are on (the one reader of `Service:Api:DisabledModules`), in which order they are built (dependencies first),
 * and it refuses two modules claiming one name, error code, route or realtime message kind, naming both.
 * `buildModules` then builds each enabled module's services once, in that order, into a table owned by the server,
 * then puts the enabled modules' recycle-bin types into the bin; `registerRoutes` registers their routes in the
 * order the modules were given.
 */
import {
  type Database,
  findMissingTablesOf,
  MIGRATIONS_TABLE,
  migrateModuleTables,
  type SeedMenu,
  type SiteFeature,
} from '@svc/data';
import {
  type Configuration,
  type ErrorCodeSet,
  type Logger,
  type Node,
  OptionsError,
  parseSection,
  serviceSchema,
} from '@svc/kernel';
import type { RecycleBinRegistry, RecycleBinType } from '@svc/security';
import { StartupError } from '../host/startup-error.js';
import type { GaugeSource, ServiceMetrics } from '../observability/metrics.js';
import type { RegisterContext } from '../openapi/register.js';
import type { HealthCheck, ModuleCore } from './core.js';
import type {
  AnyModule,
  ModuleBuild,
  ModuleDeclarations,
  ModuleJobs,
  ModuleLibrary,
  ModuleUpgrade,
  OptionsOf,
  ServicesOf,
} from './define.js';

/** What the definitions say before any service exists. */
export interface ModulePlan extends ModuleDeclarations {
  /** Enabled modules in the order given (route registration order). */
  readonly enabled: readonly AnyModule[];
  /** Enabled modules, each after the modules it depends on (build and start order). */
  readonly buildOrder: readonly AnyModule[];
  /** Error-code sets of the enabled modules. */
  readonly errorCodes: readonly ErrorCodeSet[];
  /** Seed menus of the enabled modules. */
  readonly seedMenus: readonly SeedMenu[];
  /** Findings to log at start-up (a name in DisabledModules no module has, …). */
  readonly warnings: readonly string[];
  /** True when the module named (case-insensitive) is given and on. */
  isEnabled(name: string): boolean;
  /** The parsed options of an enabled module (undefined for one without options, or one that is off). */
  optionsOf<M extends AnyModule>(module: M): OptionsOf<M> | undefined;
  /** The optional libraries the enabled modules load with their options (`libraries`), module by module. */
  readonly libraries: readonly (ModuleLibrary & { readonly module: string })[];
}

const lower = (name: string) => name.toLowerCase();

/**
 * Plans the modules of a server. Parses the options of every module the switch leaves on (a bad value stops
 * start-up naming the key) and asks their `when` and `check`. Throws `StartupError` naming both sides of a clash
 * (two modules of one name, one error-code number or one route) and a module whose dependency is off.
 */
export function planModules(
  modules: readonly AnyModule[],
  config: Configuration,
  /** Told each finding at once, so it is logged even when a later step stops start-up. */
  onWarning?: (warning: string) => void,
): ModulePlan {
  const byName = new Map<string, AnyModule>();
  for (const module of modules) {
    const taken = byName.get(lower(module.name));
    if (taken === module) continue;
    if (taken)
      throw new StartupError(
        `Two modules are named ${module.name}${taken.name === module.name ? '' : ` (${taken.name})`}: module names must be unique (case-insensitive).`,
      );
    byName.set(lower(module.name), module);
  }
  const given = [...byName.values()];
  const warnings: string[] = [];
  const warn = (warning: string) => {
    warnings.push(warning);
    onWarning?.(warning);
  };
  const disabled = new Set<string>();
  for (const name of config.service.Api.DisabledModules) {
    const module = byName.get(lower(name));
    if (!module) warn(`Service:Api:DisabledModules names "${name}", which no module has; it is ignored.`);
    else if (module.switchable === false)
      warn(`Service:Api:DisabledModules names "${name}", which cannot be disabled; it is ignored.`);
    else disabled.add(lower(name));
  }
  assertNoSectionClash(given);
  const options = new Map<AnyModule, unknown>();
  for (const module of given) {
    if (disabled.has(lower(module.name))) continue;
    const parsed = parseOptions(module, config.section);
    for (const warning of parsed.warnings) warn(warning);
    options.set(module, parsed.value);
  }
  const on = new Set(
    given
      .filter((m) => options.has(m) && (m.when?.(config, options.get(m)) ?? true))
      .map((m) => lower(m.name)),
  );
  const enabled = given.filter((m) => on.has(lower(m.name)));
  const problems = enabled.flatMap((m) => m.check?.(options.get(m), config) ?? []);
  if (problems.length > 0) throw new StartupError(problems.join(' '));
  for (const module of enabled) {
    for (const dep of module.dependsOn ?? []) {
      if (!byName.has(lower(dep.name)))
        throw new StartupError(
          `Module ${module.name} depends on module ${dep.name}, which is not installed.`,
        );
      if (!on.has(lower(dep.name)))
        throw new StartupError(
          `Module ${module.name} depends on module ${dep.name}, which is off: enable ${dep.name} or disable ${module.name} too (Service:Api:DisabledModules).`,
        );
    }
  }
  assertNoCodeClash(enabled);
  assertNoRouteClash(enabled);
  const realtimeKinds = realtimeKindsOf(enabled);
  return {
    enabled,
    buildOrder: dependencyOrder(enabled, on),
    errorCodes: enabled.flatMap((m) => m.errorCodes ?? []),
    seedMenus: enabled.flatMap((m) => m.seedMenus ?? []),
    realtimeKinds,
    warnings,
    isEnabled: (name) => on.has(lower(name)),
    optionsOf: <M extends AnyModule>(module: M) => {
      const given = byName.get(lower(module.name));
      return (given && on.has(lower(module.name)) ? options.get(given) : undefined) as
        | OptionsOf<M>
        | undefined;
    },
    libraries: enabled.flatMap((m) =>
      (m.libraries?.(options.get(m), config) ?? []).map((library) => ({ ...library, module: m.name })),
    ),
  };
}

/**
 * A module's series whose read fails is not known at that scrape (a gauge shows NaN, a counter its last total,
 * one with labels no sample) while the others, the service's own included, still answer: a read that needs the
 * database fails exactly during the outage an operator is watching. The failure is logged once, and again only
 * after a read succeeded in between.
 */
function unfailing(source: GaugeSource, module: string, log: Logger): GaugeSource {
  let failing = false;
  return {
    ...source,
    async read() {
      try {
        const value = await source.read();
        failing = false;
        return value;
      } catch (error) {
        if (!failing)
          log.warn(`Metric ${source.name} of module ${module} could not be read; left out of the scrape.`, {
            error,
          });
        failing = true;
        return undefined;
      }
    },
  };
}

/**
 * A module's options section is its own: it may not be one of the kernel's sections or keys (the kernel would
 * quietly fall back to its defaults for what the module took), nor the section of another module, nor lie inside
 * or around one (`Shop` and `Shop:Images`).
 */
function assertNoSectionClash(modules: readonly AnyModule[]): void {
  const owner = new Map<string, { section: string; module: string }>();
  for (const module of modules) {
    const section = module.options?.section;
    if (section === undefined) continue;
    const parts = section.split(':');
    if (parts.some((part) => !/^[A-Za-z][A-Za-z0-9]*$/.test(part)))
      throw new StartupError(
        `Module ${module.name} declares options section "${section}": each part must be letters and digits, starting with a letter, joined by ":".`,
      );
    // The kernel's when it names a node of the kernel's schema, or lies below one of its keys (`Jwt:SecretKey:Foo`).
    let node: Node = serviceSchema;
    let kernels = true;
    for (const part of parts) {
      if (node.kind !== 'section') break;
      const child: Node | undefined = Object.entries(node.children).find(
        ([name]) => lower(name) === lower(part),
      )?.[1];
      if (!child) {
        kernels = false;
        break;
      }
      node = child;
    }
    if (kernels)
      throw new StartupError(
        `Module ${module.name} declares options section Service:${section}, which is the kernel's: choose a section of its own.`,
      );
    const key = lower(section);
    for (const [taken, other] of owner) {
      if (taken === key || taken.startsWith(`${key}:`) || key.startsWith(`${taken}:`))
        throw new StartupError(
          `Options section Service:${section} of module ${module.name} overlaps section Service:${other.section} of module ${other.module}.`,
        );
    }
    owner.set(key, { section, module: module.name });
  }
}

function assertNoCodeClash(modules: readonly AnyModule[]): void {
  const owner = new Map<number, { module: string; key: string }>();
  for (const module of modules) {
    for (const set of module.errorCodes ?? []) {
      for (const [key, def] of Object.entries(set) as [string, { code: number; msgKey: string }][]) {
        const taken = owner.get(def.code);
        if (taken && taken.module !== module.name)
          throw new StartupError(
            `Error code ${def.code} is claimed by module ${taken.module} (${taken.key}) and by module ${module.name} (${key}).`,
          );
        owner.set(def.code, { module: module.name, key });
      }
    }
  }
}

function assertNoRouteClash(modules: readonly AnyModule[]): void {
  const owner = new Map<string, string>();
  for (const module of modules) {
    for (const { route } of module.routes ?? []) {
      const key = `${route.method.toUpperCase()} ${route.path}`;
      const taken = owner.get(key);
      if (taken !== undefined)
        throw new StartupError(
          taken === module.name
            ? `Module ${module.name} declares ${key} twice.`
            : `Route ${key} is declared by module ${taken} and by module ${module.name}.`,
        );
      owner.set(key, module.name);
    }
  }
}

/** The realtime message kinds of the enabled modules with their owners; one claimed twice fails start-up. */
function realtimeKindsOf(modules: readonly AnyModule[]): ReadonlyMap<string, string> {
  const owner = new Map<string, string>();
  for (const module of modules) {
    for (const kind of module.realtimeKinds ?? []) {
      const taken = owner.get(kind);
      if (taken !== undefined)
        throw new StartupError(
          taken === module.name
            ? `Module ${module.name} declares realtime message kind ${kind} twice.`
            : `Realtime message kind ${kind} is claimed by module ${taken} and by module ${module.name}.`,
        );
      owner.set(kind, module.name);
    }
  }
  return owner;
}

/** Dependencies first, otherwise the given order; a cycle fails start-up naming its modules. */
function dependencyOrder(enabled: readonly AnyModule[], on: ReadonlySet<string>): AnyModule[] {
  const order: AnyModule[] = [];
  const state = new Map<AnyModule, 'visiting' | 'done'>();
  const visit = (module: AnyModule, path: string[]) => {
    const seen = state.get(module);
    if (seen === 'done') return;
    if (seen === 'visiting')
      throw new StartupError(
        `Modules depend on each other in a cycle: ${[...path, module.name].join(' → ')}.`,
      );
    state.set(module, 'visiting');
    for (const dep of [...(module.dependsOn ?? []), ...(module.optional ?? [])]) {
      const target = enabled.find((m) => lower(m.name) === lower(dep.name));
      if (target && on.has(lower(dep.name))) visit(target, [...path, module.name]);
    }
    state.set(module, 'done');
    order.push(module);
  };
  for (const module of enabled) visit(module, []);
  return order;
}

/** The built modules of one server. */
export interface ComposedModules {
  readonly plan: ModulePlan;
  /** Builds every enabled module's services once, dependencies first (called once by the composition root). */
  build(): Promise<void>;
  /** The services a module built; throws for a module that is off or not given. */
  servicesOf<M extends AnyModule>(module: M): ServicesOf<M>;
  /** The services of a module when it is on. */
  servicesIfOn<M extends AnyModule>(module: M): ServicesOf<M> | undefined;
  /** Health checks of the enabled modules, in build order (after `build`). */
  health(): HealthCheck[];
  /** What the enabled modules take off the HTTP path on the listener (`upgrade`), in build order (after `build`). */
  upgrades(): ModuleUpgrade[];
  /** Registers the enabled modules' routes, each module as its own `x-module` area. */
  registerRoutes(ctx: RegisterContext): void;
  /** The scheduled-job contributions of the enabled modules (after `build`). */
  jobs(): ModuleJobs;
  /**
   * Registers the enabled modules' `metrics` into the server's registry (after `build` and the service's own
   * series); a name taken by the service or by another module throws `StartupError` naming both.
   */
  registerMetrics(metrics: Pick<ServiceMetrics, 'registry' | 'addGauge'>): void;
  /**
   * Tells the enabled modules' `onUserPurged` that a user was deleted for good, in build order (after `build`); a
   * failure is logged naming the module and the user, and the rest are still told. Never throws.
   */
  userPurged(userId: number): Promise<void>;
  /** Runs each module's `start`, dependencies first (the module running jobs last). */
  start(): Promise<void>;
  /**
   * Runs each module's `close`, dependents first (the module running jobs first); a failure is logged and the
   * rest still close.
   */
  close(): Promise<void>;
}

interface Built {
  services: unknown;
  build: ModuleBuild<unknown, unknown>;
}

/**
 * The modules of one server, to be built with `build()`: each enabled module's services once, dependencies
 * first, each with the options its plan parsed.
 */
export function composeModules(
  plan: ModulePlan,
  core: ModuleCore,
  options: {
    logger: Logger;
    /**
     * The recycle bin the enabled modules' `recycleTypes` go into, once all are built (module `RecycleBin`'s,
     * found through `servicesIfOn`); undefined when there is none, and then no type is registered.
     */
    recycleBin?: (
      servicesIfOn: <M extends AnyModule>(module: M) => ServicesOf<M> | undefined,
    ) => Pick<RecycleBinRegistry, 'register'> | undefined;
  },
): ComposedModules {
  const built = new Map<AnyModule, Built>();
  const byName = new Map(plan.enabled.map((m) => [lower(m.name), m]));
  const find = (module: AnyModule) => byName.get(lower(module.name));
  const servicesIfOn = <M extends AnyModule>(module: M): ServicesOf<M> | undefined => {
    const target = find(module);
    return target ? (built.get(target)?.services as ServicesOf<M>) : undefined;
  };
  let jobs: ModuleJobs | undefined;
  const moduleJobs = (): ModuleJobs => {
    if (!jobs) throw new TypeError("The modules' jobs are known once every module is built.");
    return jobs;
  };
  let siteFeatures: readonly SiteFeature[] | undefined;
  const moduleSiteFeatures = (): readonly SiteFeature[] => {
    if (!siteFeatures)
      throw new TypeError("The modules' site features are known once every module is built.");
    return siteFeatures;
  };
  const build = async () => {
    for (const module of plan.buildOrder) {
      const declared = (dep: AnyModule, list: readonly AnyModule[] | undefined) =>
        (list ?? []).some((d) => lower(d.name) === lower(dep.name));
      const build: ModuleBuild<unknown, unknown> = {
        core,
        options: plan.optionsOf(module),
        tables: module.tables?.[core.database.dbType],
        use: (dep) => {
          if (!declared(dep, module.dependsOn))
            throw new TypeError(
              `Module ${module.name} uses module ${dep.name} without declaring it in dependsOn.`,
            );
          const target = find(dep);
          if (!target || !built.has(target)) throw new TypeError(`Module ${dep.name} is not built.`);
          return built.get(target)?.services as never;
        },
        useOptional: (dep) => {
          if (!declared(dep, module.optional) && !declared(dep, module.dependsOn))
            throw new TypeError(
              `Module ${module.name} uses module ${dep.name} without declaring it in optional.`,
            );
          return servicesIfOn(dep) as never;
        },
        declared: { realtimeKinds: plan.realtimeKinds },
        moduleJobs,
        moduleSiteFeatures,
      };
      const services = module.services ? await module.services(build) : undefined;
      built.set(module, { services, build });
    }
    jobs = collectJobs(plan.enabled, built);
    siteFeatures = siteFeaturesOf(plan.enabled, built);
    const types = recycleTypesOf(plan.enabled, built);
    const bin = options.recycleBin?.(servicesIfOn);
    if (!bin) return;
    for (const { module, type } of types) {
      try {
        bin.register(type);
      } catch (error) {
        // The bin's own refusal: a name that is not a path segment.
        throw new StartupError(`Module ${module}: ${(error as Error).message}`, { cause: error });
      }
    }
  };
  // The module running the jobs starts after the modules whose handlers it runs, and stops before they close.
  const startOrder = [
    ...plan.buildOrder.filter((m) => !m.runsJobs),
    ...plan.buildOrder.filter((m) => m.runsJobs),
  ];
  const log = options.logger;
  return {
    plan,
    servicesOf: (module) => {
      const target = find(module);
      if (!target) throw new TypeError(`Module ${module.name} is off or not given.`);
      const b = built.get(target);
      if (!b) throw new TypeError(`Module ${module.name} is not built yet.`);
      return b.services as never;
    },
    build,
    servicesIfOn,
    health: () =>
      plan.buildOrder.flatMap((m) => {
        const b = built.get(m);
        return b ? [...(m.health?.(b.services, b.build) ?? [])] : [];
      }),
    upgrades: () =>
      plan.buildOrder.flatMap((m) => {
        const b = built.get(m);
        const upgrade = b ? m.upgrade?.(b.services) : undefined;
        return upgrade ? [upgrade] : [];
      }),
    registerRoutes(ctx) {
      for (const module of plan.enabled) {
        const b = built.get(module) as Built;
        const area: RegisterContext = { ...ctx, module: module.name };
        for (const route of module.routes ?? []) route.register(area, b.services);
      }
    },
    jobs: moduleJobs,
    registerMetrics(metrics) {
      const owner = new Map<string, string>();
      for (const module of plan.buildOrder) {
        const b = built.get(module);
        if (!module.metrics || !b) continue;
        for (const source of module.metrics(b.services, b.build)) {
          const taken = owner.get(source.name);
          if (taken !== undefined)
            throw new StartupError(
              taken === module.name
                ? `Module ${module.name} declares metric ${source.name} twice.`
                : `Metric ${source.name} is declared by module ${taken} and by module ${module.name}.`,
            );
          if (metrics.registry.getSingleMetric(source.name))
            throw new StartupError(
              `Metric ${source.name} of module ${module.name} is one of the service's own: choose another name.`,
            );
          metrics.addGauge(unfailing(source, module.name, log));
          owner.set(source.name, module.name);
        }
      }
    },
    async userPurged(userId) {
      for (const module of plan.buildOrder) {
        const b = built.get(module);
        if (!module.onUserPurged || !b) continue;
        try {
          await module.onUserPurged(b.services, userId, b.build);
        } catch (error) {
          log.error(`Module ${module.name} could not remove what it keeps of purged user ${userId}.`, {
            error,
            userId,
          });
        }
      }
    },
    async start() {
      for (const module of startOrder) {
        const b = built.get(module) as Built;
        await module.start?.(b.services, b.build);
      }
    },
    async close() {
      for (const module of [...startOrder].reverse()) {
        const b = built.get(module) as Built;
        try {
          await module.close?.(b.services, b.build);
        } catch (error) {
          log.error(`Module ${module.name} did not close cleanly.`, { error });
        }
      }
    },
  };
}

/**
 * The job handlers, reclaimers and Panic alerts the enabled modules declare, in the order given. Throws
 * `StartupError` naming both modules when two declare a handler of one name.
 */
function collectJobs(enabled: readonly AnyModule[], built: ReadonlyMap<AnyModule, Built>): ModuleJobs {
  const handlers: ModuleJobs['handlers'][number][] = [];
  const reclaimers: ModuleJobs['reclaimers'][number][] = [];
  const alerts: ModuleJobs['alerts'][number][] = [];
  const owner = new Map<string, string>();
  for (const module of enabled) {
    const b = built.get(module);
    if (!b) continue;
    for (const entry of module.jobs?.(b.services, b.build) ?? []) {
      const taken = owner.get(entry.name);
      if (taken !== undefined)
        throw new StartupError(
          taken === module.name
            ? `Module ${module.name} declares the job handler ${entry.name} twice.`
            : `The job handler ${entry.name} is declared by module ${taken} and by module ${module.name}.`,
        );
      owner.set(entry.name, module.name);
      handlers.push({ ...entry, module: module.name });
    }
    reclaimers.push(...(module.reclaimers?.(b.services, b.build) ?? []));
    if (module.jobAlert) alerts.push(module.jobAlert(b.services, b.build));
  }
  return { handlers, reclaimers, alerts };
}

/** The site features of the enabled modules, in the order given; two declaring one name fail start-up naming both. */
function siteFeaturesOf(modules: readonly AnyModule[], built: ReadonlyMap<AnyModule, Built>): SiteFeature[] {
  const owner = new Map<string, string>();
  const features: SiteFeature[] = [];
  for (const module of modules) {
    const b = built.get(module);
    if (!module.siteFeatures || !b) continue;
    for (const feature of module.siteFeatures(b.services, b.build)) {
      const taken = owner.get(feature.name);
      if (taken !== undefined)
        throw new StartupError(
          taken === module.name
            ? `Module ${module.name} declares the site feature ${feature.name} twice.`
            : `The site feature ${feature.name} is declared by module ${taken} and by module ${module.name}.`,
        );
      owner.set(feature.name, module.name);
      features.push(feature);
    }
  }
  return features;
}

/**
 * The recycle-bin types of the enabled modules, in the order the modules were given; two claiming one name (any
 * case, as the bin matches them) fail start-up naming both.
 */
function recycleTypesOf(
  modules: readonly AnyModule[],
  built: ReadonlyMap<AnyModule, Built>,
): { module: string; type: RecycleBinType }[] {
  const owner = new Map<string, string>();
  const types: { module: string; type: RecycleBinType }[] = [];
  for (const module of modules) {
    if (!module.recycleTypes) continue;
    const b = built.get(module) as Built;
    for (const type of module.recycleTypes(b.services, b.build)) {
      const key = type.type.trim().toLowerCase();
      const taken = owner.get(key);
      if (taken !== undefined)
        throw new StartupError(
          taken === module.name
            ? `Module ${module.name} declares recycle-bin type "${key}" twice.`
            : `Recycle-bin type "${key}" is declared by module ${taken} and by module ${module.name}.`,
        );
      owner.set(key, module.name);
      types.push({ module: module.name, type });
    }
  }
  return types;
}

function parseOptions(
  module: AnyModule,
  sections: (section: string) => unknown,
): { value: unknown; warnings: readonly string[] } {
  if (!module.options) return { value: undefined, warnings: [] };
  const spec = module.options;
  const raw = sections(spec.section);
  if ('declared' in spec) {
    try {
      return parseSection(spec.declared, raw, `Service:${spec.section}`);
    } catch (error) {
      if (!(error instanceof OptionsError)) throw error;
      throw new StartupError(`Module ${module.name} has invalid options. ${error.problems.join('; ')}`);
    }
  }
  const parsed = spec.schema.safeParse(raw ?? {});
  if (parsed.success) return { value: parsed.data, warnings: [] };
  const problems = parsed.error.issues.map(
    (issue) => `Service:${[spec.section, ...issue.path.map(String)].join(':')}: ${issue.message}`,
  );
  throw new StartupError(`Module ${module.name} has invalid options. ${problems.join('; ')}`);
}

/** True when the module named is on in the server these deps belong to (`deps.modules.plan.isEnabled`). */
export function isModuleEnabled(deps: { modules: { plan: ModulePlan } }, name: string): boolean {
  return deps.modules.plan.isEnabled(name);
}

/**
 * Applies each enabled module's migrations (its own folder and journal) when code-first creation is on, or checks
 * that its tables exist; throws `StartupError` naming the module and what is missing.
 */
export async function prepareModuleTables(
  database: Database,
  modules: readonly AnyModule[],
  codeFirst: boolean,
): Promise<void> {
  for (const module of modules) {
    const tables = module.tables;
    if (!tables) continue;
    const own = tables[database.dbType] as Readonly<Record<string, unknown>> | undefined;
    const folder = tables.migrations[database.dbType];
    if (!own || !folder)
      throw new StartupError(`Module ${module.name} has no tables or migrations for ${database.dbType}.`);
    if (codeFirst) {
      await migrateModuleTables(database, {
        folder,
        table: tables.journal ?? `${MIGRATIONS_TABLE}_${module.name.toLowerCase()}`,
      });
      continue;
    }
    const missing = await findMissingTablesOf(database, own);
    if (missing.length > 0)
      throw new StartupError(
        `The database lacks ${missing.length} table(s) of module ${module.name}: ${missing.join(', ')}. Apply its migrations, or enable code-first creation for one start.`,
      );
  }
}
