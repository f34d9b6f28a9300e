/**
 * The personal passkeys in the order the service asks for: the registration options first (the chain's
 * re-authentication happens there), the name next, then the browser's ceremony and the stored credential under
 * that name; a failed ceremony leaves no stale challenge behind; rename and remove reload the list; a list that
 * does not answer (module off) leaves the section unavailable.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/envelope.js';
import type { CreationCeremony, PasskeyRow, RegistrationResponse } from './api.js';
import { createPersonalPasskeys } from './personal.js';

const row = (id: number, name: string): PasskeyRow => ({
  id,
  name,
  createTime: '2026-12-03T10:00:00.000Z',
  lastUsedTime: null,
  backedUp: false,
});

function fakes(opts: { off?: boolean; ceremonyFails?: Error } = {}) {
  const calls: string[] = [];
  let rows: PasskeyRow[] = [];
  let serial = 0;
  const api = {
    list: async () => {
      calls.push('list');
      if (opts.off) throw new ApiError(-2, 'error.client.network');
      return rows;
    },
    registrationOptions: async (): Promise<CreationCeremony> => {
      calls.push('options');
      serial++;
      return {
        challengeId: `r${serial}`,
        options: { challenge: `r${serial}` } as CreationCeremony['options'],
      };
    },
    register: async (challengeId: string, response: RegistrationResponse, name: string) => {
      calls.push(`register ${challengeId} ${response.id} ${name}`);
      rows = [...rows, row(rows.length + 1, name)];
      return { id: rows.length, name };
    },
    rename: async (id: number, name: string) => {
      calls.push(`rename ${id} ${name}`);
      rows = rows.map((r) => (r.id === id ? { ...r, name } : r));
    },
    remove: async (id: number) => {
      calls.push(`remove ${id}`);
      rows = rows.filter((r) => r.id !== id);
    },
  };
  const browser = {
    supported: () => true,
    register: async (ceremony: CreationCeremony): Promise<RegistrationResponse> => {
      calls.push(`create ${ceremony.challengeId}`);
      if (opts.ceremonyFails) throw opts.ceremonyFails;
      return {
        id: `cred-${ceremony.challengeId}`,
        rawId: `cred-${ceremony.challengeId}`,
        type: 'public-key',
        response: { clientDataJSON: 'cd', attestationObject: 'ao' },
        clientExtensionResults: {},
      };
    },
  };
  return { calls, personal: createPersonalPasskeys({ api, browser }) };
}

describe('personal passkeys', () => {
  it('adds one: options (re-authentication), then the name, then the ceremony and the stored credential', async () => {
    const { calls, personal } = fakes();
    await personal.load();
    expect(personal.available.value).toBe(true);
    await personal.startAdd();
    expect(personal.naming.value?.challengeId).toBe('r1');
    expect(calls).toEqual(['list', 'options']);
    const added = await personal.finishAdd('Laptop');
    expect(added).toEqual({ id: 1, name: 'Laptop' });
    expect(calls).toEqual(['list', 'options', 'create r1', 'register r1 cred-r1 Laptop', 'list']);
    expect(personal.rows.value.map((r) => r.name)).toEqual(['Laptop']);
    expect(personal.naming.value).toBeUndefined();
  });

  it('a ceremony the user closes ends the attempt: the next one asks for fresh options', async () => {
    const { calls, personal } = fakes({
      ceremonyFails: Object.assign(new Error('x'), { name: 'NotAllowedError' }),
    });
    await personal.startAdd();
    await expect(personal.finishAdd('Laptop')).rejects.toThrow('x');
    expect(personal.naming.value).toBeUndefined();
    expect(personal.busy.value).toBe(false);
    await personal.startAdd();
    expect(personal.naming.value?.challengeId).toBe('r2');
    expect(calls.filter((c) => c.startsWith('register'))).toEqual([]);
  });

  it('cancel drops the options; finishing without them does nothing', async () => {
    const { calls, personal } = fakes();
    await personal.startAdd();
    personal.cancelAdd();
    expect(await personal.finishAdd('x')).toBeUndefined();
    expect(calls).toEqual(['options']);
  });

  it('renames and removes, reloading the list', async () => {
    const { personal } = fakes();
    await personal.startAdd();
    await personal.finishAdd('One');
    await personal.rename(1, 'Phone');
    expect(personal.rows.value.map((r) => r.name)).toEqual(['Phone']);
    await personal.remove(1);
    expect(personal.rows.value).toEqual([]);
  });

  it('is unavailable while the list does not answer (module off)', async () => {
    const { personal } = fakes({ off: true });
    await expect(personal.load()).rejects.toBeInstanceOf(ApiError);
    expect(personal.available.value).toBe(false);
  });
});
