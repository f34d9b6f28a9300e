/**
 * A module's options, as the composition root reads them before anything connects: its section taken out of the
 * kernel's (a nested one too), parsed with its declaration or its zod schema, handed to `when`, `check`,
 * `libraries` and the build; a bad value stops start-up naming the key, a module switched off is not read.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bool, int, loadConfiguration, section, strings } from '@svc/kernel';

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { StartupError } from '../host/startup-error.js';
import { planModules } from './compose.js';
import { type AnyModule, defineModule, moduleOptions } from './define.js';

/** A section of one key, for the modules that only claim one. */
const section_ = () => section({ On: bool(true, 'On.') });

const root = mkdtempSync(join(tmpdir(), 'svc-module-options-'));

const seen: { when?: unknown; check?: unknown; libraries?: unknown } = {};

const vault = defineModule({
  name: 'Vault',
  // Nested under a kernel section: Service:Security:Vault.
  options: moduleOptions(
    'Security:Vault',
    section({
      Enabled: bool(true, 'Serve the vault.'),
      MaxSecrets: int(10, 'Most secrets per user.', { min: 1, max: 100 }),
      Origins: strings([], 'Allowed origins.'),
    }),
  ),
  when: (_config, options) => {
    seen.when = options;
    return options.Enabled;
  },
  check: (options) => {
    seen.check = options;
    return options.Origins.includes('http://evil')
      ? ['Service:Security:Vault:Origins lists http://evil.']
      : [];
  },
  libraries: (options) => {
    seen.libraries = options;
    return options.MaxSecrets > 50 ? [{ needs: [], load: async () => undefined, from: import.meta.url }] : [];
  },
});

const shop = defineModule({
  name: 'Shop',
  options: { section: 'Shop', schema: z.object({ MaxItems: z.coerce.number().int().min(1).default(100) }) },
});

function plan(env: Record<string, string>, modules: readonly AnyModule[] = [vault, shop]) {
  const config = loadConfiguration({
    contentRoot: root,
    env,
    moduleSections: modules.flatMap((m) => m.options?.section ?? []),
  });
  return { config, plan: planModules(modules, config) };
}

describe('module options', () => {
  it('parses a declared section in the forms of every key, nested under a kernel section, with no warning', () => {
    const { config, plan: p } = plan({
      Service__Security__Vault__MaxSecrets: '42',
      Service__Security__Vault__Origins__0: 'https://a.example',
      Service__Security__Vault__Origins__1: 'https://b.example',
      Service__Security__LoginLock__LockMinutes: '7',
    });
    const options = { Enabled: true, MaxSecrets: 42, Origins: ['https://a.example', 'https://b.example'] };
    expect(p.optionsOf(vault)).toEqual(options);
    expect(seen).toEqual({ when: options, check: options, libraries: options });
    // The kernel's own Security keys still parse beside it, and nobody warns about Vault.
    expect(config.service.Security.LoginLock.LockMinutes).toBe(7);
    expect([...config.warnings, ...p.warnings]).toEqual([]);
    expect(p.optionsOf(shop)).toEqual({ MaxItems: 100 });
  });

  it('stops start-up naming the key of a bad value (declared or zod)', () => {
    expect(() => plan({ Service__Security__Vault__MaxSecrets: '1e3' })).toThrow(StartupError);
    expect(() => plan({ Service__Security__Vault__MaxSecrets: '101' })).toThrow(
      /Module Vault has invalid options\. .*Service:Security:Vault:MaxSecrets: expected integer 1\.\.100/,
    );
    expect(() => plan({ Service__Shop__MaxItems: '0' })).toThrow(
      /Module Shop has invalid options\. Service:Shop:MaxItems: /,
    );
  });

  it('warns about an unknown key in a declared section', () => {
    const { plan: p } = plan({ Service__Security__Vault__MaxSecret: '5' });
    expect(p.warnings).toContain('Service:Security:Vault:MaxSecret is not a known key and was ignored.');
  });

  it('hands the options to `when`: false leaves the module off', () => {
    const { plan: p } = plan({ Service__Security__Vault__Enabled: 'false' });
    expect(p.isEnabled('Vault')).toBe(false);
    expect(p.optionsOf(vault)).toBeUndefined();
  });

  it('stops start-up with what `check` finds, before anything connects', () => {
    expect(() => plan({ Service__Security__Vault__Origins: 'http://evil' })).toThrow(
      'Service:Security:Vault:Origins lists http://evil.',
    );
  });

  it('collects the libraries an enabled module loads with its options', () => {
    expect(plan({}).plan.libraries).toEqual([]);
    expect(plan({ Service__Security__Vault__MaxSecrets: '60' }).plan.libraries.map((l) => l.module)).toEqual([
      'Vault',
    ]);
  });

  it('reads nothing of a module switched off: its bad value does not stop start-up', () => {
    const { plan: p } = plan({
      Service__Api__DisabledModules__0: 'Vault',
      Service__Security__Vault__MaxSecrets: 'many',
    });
    expect(p.isEnabled('Vault')).toBe(false);
    expect(p.optionsOf(vault)).toBeUndefined();
  });

  it("refuses a section of the kernel, another module's, or one inside or around it, naming both", () => {
    const claiming = (name: string, section: string) =>
      defineModule({ name, options: moduleOptions(section, section_()) });
    const refused = (modules: readonly AnyModule[]) => {
      try {
        plan({}, modules);
      } catch (error) {
        if (error instanceof StartupError) return error.message;
        throw error;
      }
      return 'started';
    };
    expect(refused([claiming('Thief', 'security')])).toMatch(/Service:security, which is the kernel's/);
    expect(refused([claiming('Thief', 'Security:LoginLock')])).toMatch(/which is the kernel's/);
    expect(refused([claiming('Thief', 'Database:DbType')])).toMatch(/which is the kernel's/);
    expect(refused([claiming('Thief', 'Jwt:SecretKey:Foo')])).toMatch(/which is the kernel's/);
    expect(refused([shop, claiming('Copy', 'SHOP')])).toMatch(
      /Service:SHOP of module Copy overlaps section Service:Shop of module Shop/,
    );
    expect(refused([shop, claiming('Images', 'Shop:Images')])).toMatch(
      /of module Images overlaps .* module Shop/,
    );
    expect(refused([claiming('Odd', 'Shop::x')])).toMatch(/each part must be letters and digits/);
    expect(refused([vault, claiming('Sibling', 'Security:Vaults')])).toBe('started');
  });
});
