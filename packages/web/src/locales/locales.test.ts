/**
 * Every code of the service's catalog (the kernel's and every built-in module's, read here at test time; the console
 * itself imports no server code) has a message in both locales, and the two locales carry exactly the same keys.
 */
import { BUILT_IN_MODULES } from '@svc/http';
import { ErrorCodeRegistry } from '@svc/kernel';
import { describe, expect, it } from 'vitest';
import { enUS } from './en-US.js';
import { zhCN } from './zh-CN.js';

describe('console locales', () => {
  const catalog = new ErrorCodeRegistry(BUILT_IN_MODULES.flatMap((m) => m.errorCodes ?? [])).catalog();

  it('have a message for every error code of the catalog, in both languages', () => {
    expect(catalog.length).toBeGreaterThan(50);
    const missing = catalog.flatMap((e) =>
      [
        ['en-US', enUS],
        ['zh-CN', zhCN],
      ].flatMap(([name, messages]) =>
        (messages as Record<string, string>)[e.msgKey] ? [] : [`${name}: ${e.code} ${e.msgKey}`],
      ),
    );
    expect(missing).toEqual([]);
  });

  it('carry the same keys, none empty', () => {
    expect(Object.keys(zhCN).sort()).toEqual(Object.keys(enUS).sort());
    for (const messages of [enUS, zhCN]) {
      expect(Object.entries(messages).filter(([, v]) => v.trim() === '')).toEqual([]);
    }
  });

  it('use the same placeholders in both languages', () => {
    const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [key, text] of Object.entries(enUS)) {
      expect(names(zhCN[key] ?? ''), key).toEqual(names(text));
    }
  });
});
