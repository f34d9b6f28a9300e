import * as data from '@svc/data';
import * as http from '@svc/http';
import * as kernel from '@svc/kernel';
import * as logging from '@svc/logging';
import * as modules from '@svc/modules';
import * as security from '@svc/security';
import { describe, expect, it } from 'vitest';
import * as server from './index.js';

const layers = { kernel, data, security, logging, modules, http } as Record<string, Record<string, unknown>>;

describe('@svc/server barrel', () => {
  it('no two layers export the same name (an `export *` collision would silently drop both)', () => {
    const owners = new Map<string, string[]>();
    for (const [layer, mod] of Object.entries(layers)) {
      for (const name of Object.keys(mod)) owners.set(name, [...(owners.get(name) ?? []), layer]);
    }
    const collisions = [...owners]
      .filter(([, who]) => who.length > 1)
      .map(([name, who]) => `${name}: ${who.join(', ')}`);
    expect(collisions).toEqual([]);
  });

  it('re-exports every runtime name of every layer', () => {
    const missing = Object.entries(layers).flatMap(([layer, mod]) =>
      Object.keys(mod)
        .filter((name) => !(name in server))
        .map((name) => `${layer}.${name}`),
    );
    expect(missing).toEqual([]);
    expect(typeof server.createServer).toBe('function');
  });
});
