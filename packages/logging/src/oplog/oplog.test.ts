import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { NewOpLog } from '@svc/data';
import { opLogRow } from '@svc/data/testing';
import { silentLogger } from '@svc/kernel';
import { describe, expect, it } from 'vitest';
import { createConsoleLogger } from '../console-logger.js';
import { nothingToMask } from '../masking.js';
import { capParamText, maskedJsonText, opLogParamsText, opLogParamText, serializeParams } from './params.js';
import { createOpLogWriter } from './writer.js';

const row = (n: number): NewOpLog => opLogRow({ title: `op ${n}` });

describe('operation-log parameters', () => {
  it('masks by name, case-insensitively, in nested objects and arrays', () => {
    const text = serializeParams({
      account: 'bob',
      newPassword: 'x',
      profile: { ApiKey: 'k', list: [{ refresh_TOKEN: 't', ok: 1 }] },
    });
    expect(JSON.parse(text)).toEqual({
      account: 'bob',
      newPassword: '***',
      profile: { ApiKey: '***', list: [{ refresh_TOKEN: '***', ok: 1 }] },
    });
  });

  it('records cycles and functions as <unserializable>', () => {
    const a: Record<string, unknown> = { f: () => 1 };
    a.self = a;
    expect(JSON.parse(serializeParams(a))).toEqual({ f: '<unserializable>', self: '<unserializable>' });
  });

  it('caps long text at the limit, keeps its start and the original length, and stays valid JSON', () => {
    const body = { note: `"quoted"\\ ${'é'.repeat(20_000)}` };
    const full = serializeParams(body);
    const capped = opLogParamText(body, 8192);
    expect(capped.length).toBeLessThanOrEqual(8192);
    const parsed = JSON.parse(capped);
    expect(parsed).toMatchObject({ truncated: true, originalLength: full.length });
    expect(full.startsWith(parsed.head)).toBe(true);
    expect(parsed.head.length).toBeGreaterThan(4000);
    expect(capParamText('{"a":1}', 8192)).toBe('{"a":1}');
  });
});

describe('operation-log parameters from the JSON text of a body', () => {
  const parts = { params: { id: '17' }, query: { tab: 'a' } };
  const samples: unknown[] = [
    { name: 'Bench position', sort: 10, remark: 'Updated' },
    { account: 'bob', newPassword: 'p1', nested: [{ ApiKey: 'k' }] },
    { data: '{"token":"t"}', list: [1, '[2]'] },
    { deep: { deeper: { deepest: [null, true, 1.5, 'x'] } } },
    [{ code: 'c' }, { barcode: 'b' }],
    'text',
    42,
  ];

  it('writes the same text as masking the parsed body, for every kind of body', () => {
    for (const body of samples) {
      const text = JSON.stringify(body);
      expect(opLogParamsText({ ...parts, bodyJson: text }, 8192)).toBe(
        opLogParamText({ ...parts, body }, 8192),
      );
    }
    expect(opLogParamsText({}, 8192)).toBeNull();
    expect(opLogParamsText({ body: { a: 1 } }, 8192)).toBe('{"body":{"a":1}}');
  });

  it('keeps a body with nothing to mask as the client spelled it, only without outer white space', () => {
    expect(maskedJsonText(' {"a" : 1,\n "b":[ 2 ]}\r\n')).toBe('{"a" : 1,\n "b":[ 2 ]}');
  });

  it('skips only the checks whose answer the caller already knows', () => {
    // Known clean and parsed: written as spelled, with no parse (a text that is not JSON shows it was not parsed).
    expect(maskedJsonText(' {"a":1} ', { clean: true, parsed: true })).toBe('{"a":1}');
    expect(maskedJsonText('{"a":', { clean: true, parsed: true })).toBe('{"a":');
    // Known clean only: still checked to be JSON.
    expect(maskedJsonText('{"a":', { clean: true })).toBe('"<unserializable>"');
    expect(maskedJsonText('{"a":1}', { clean: true })).toBe('{"a":1}');
    // Known parsed only: still masked.
    expect(JSON.parse(maskedJsonText('{"token":"t"}', { parsed: true }))).toEqual({ token: '***' });
    expect(opLogParamsText({ bodyJson: '{"b":2}', bodyJsonKnown: { clean: true, parsed: true } }, 8192)).toBe(
      '{"body":{"b":2}}',
    );
  });

  it('masks names the text spells with escapes, or with letters that lower-case to a sensitive name', () => {
    // `\u0077` is "w": the name is "password" only once parsed.
    const escaped = maskedJsonText('{"pass\\u0077ord":"p2","keep":"k"}');
    expect(JSON.parse(escaped)).toEqual({ password: '***', keep: 'k' });
    expect(escaped).not.toContain('p2');
    // U+212A KELVIN SIGN lower-cases to "k": "apiKey" to the name check.
    const kelvin = maskedJsonText('{"api\u212Aey":"k9"}');
    expect(JSON.parse(kelvin)).toEqual({ 'api\u212Aey': '***' });
    // A name inside JSON held in a string, escaped as JSON in a string must be.
    expect(JSON.parse(maskedJsonText(JSON.stringify({ inner: '{"secret":"s"}' })))).toEqual({
      inner: '{"secret":"***"}',
    });
  });

  it('keeps a text only when masking its value would change nothing (generated bodies)', () => {
    // A small deterministic generator (no dependency on a random seed): names and strings drawn from sensitive
    // fragments, exact names, look-alikes (Kelvin sign, dotted I, long s), `__proto__` and embedded JSON.
    let state = 20261126;
    const next = (n: number) => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % n;
    };
    const words = [
      'name',
      'Pass',
      'word',
      'api\u212Aey',
      'code',
      'bar',
      'sİg',
      'ſecret',
      '__proto__',
      'to',
      'ken',
      'x',
    ];
    const word = () =>
      (words[next(words.length)] as string) + (next(3) === 0 ? (words[next(words.length)] as string) : '');
    const value = (depth: number): unknown => {
      switch (depth > 2 ? next(3) : next(6)) {
        case 0:
          return word();
        case 1:
          return next(1000) / 10;
        case 2:
          return next(2) === 0;
        case 3:
          return JSON.stringify({ [word()]: word() });
        case 4:
          return Array.from({ length: next(3) }, () => value(depth + 1));
        default:
          return Object.fromEntries(Array.from({ length: next(4) }, () => [word(), value(depth + 1)]));
      }
    };
    let kept = 0;
    for (let i = 0; i < 3000; i++) {
      const text = JSON.stringify(value(0));
      const parsed = JSON.parse(text);
      if (nothingToMask(text)) {
        kept++;
        expect(serializeParams(parsed)).toBe(JSON.stringify(parsed));
      }
      expect(JSON.parse(maskedJsonText(text))).toEqual(JSON.parse(serializeParams(parsed)));
    }
    // Both ways were taken.
    expect(kept).toBeGreaterThan(100);
    expect(kept).toBeLessThan(3000);
  });

  it('records text that is not JSON as <unserializable>', () => {
    for (const bad of ['{"a":', '', 'undefined', "{'a':1}"]) {
      expect(maskedJsonText(bad)).toBe('"<unserializable>"');
    }
  });

  it('writes path parameters and queries with a sensitive name or JSON inside masked, the others as they are', () => {
    expect(opLogParamsText({ params: { token: 'abc' }, query: { q: '{"pwd":"x"}' } }, 8192)).toBe(
      '{"params":{"token":"***"},"query":{"q":"{\\"pwd\\":\\"***\\"}"}}',
    );
    expect(opLogParamsText({ query: { tags: ['a', 'b'] } }, 8192)).toBe('{"query":{"tags":["a","b"]}}');
  });
});

describe('operation-log writer', () => {
  it('queues without a promise in async mode; in sync mode enqueue declines and write stores the row', async () => {
    const stored: NewOpLog[] = [];
    const sink = { insertMany: async (rows: readonly NewOpLog[]) => stored.push(...rows) };
    const queued = createOpLogWriter({ sink, logger: silentLogger });
    expect(queued.enqueue(row(1))).toBe(true);
    expect(queued.stats().queued).toBe(1);
    await queued.drain(5_000);
    expect(stored.map((r) => r.title)).toEqual(['op 1']);
    const sync = createOpLogWriter({ sink, logger: silentLogger, sync: true });
    expect(sync.enqueue(row(2))).toBe(false);
    expect(stored).toHaveLength(1);
    await sync.write(row(2));
    expect(stored.map((r) => r.title)).toEqual(['op 1', 'op 2']);
  });

  /** A sink that keeps the size of each batch it is given. */
  const counting = (batches: number[]) => ({
    insertMany: async (rows: readonly NewOpLog[]) => batches.push(rows.length),
  });

  it('writes in batches of 200 and drains everything', async () => {
    const batches: number[] = [];
    const writer = createOpLogWriter({ sink: counting(batches), logger: silentLogger });
    for (let i = 0; i < 450; i++) await writer.write(row(i));
    const left = await writer.drain(5000);
    expect(left).toMatchObject({ queued: 0, written: 450, dropped: 0 });
    expect(Math.max(...batches)).toBeLessThanOrEqual(200);
    expect(batches.reduce((a, b) => a + b, 0)).toBe(450);
  });

  it('writes full batches under load; the rows that come in meanwhile wait for the pace, not a small INSERT of their own', async () => {
    const batches: number[] = [];
    const writer = createOpLogWriter({
      sink: counting(batches),
      logger: silentLogger,
      // The pace never comes within the test: only a full batch (or the drain) starts a flush.
      flushIntervalMs: 600_000,
    });
    writer.enqueue(row(0));
    await new Promise((r) => setImmediate(r)); // the first row after a quiet spell goes out at once
    for (let i = 1; i <= 450; i++) writer.enqueue(row(i));
    for (let turn = 0; turn < 5; turn++) await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([1, 200, 200]);
    expect(writer.stats().queued).toBe(50);
    expect(await writer.drain(5000)).toMatchObject({ queued: 0, written: 451 });
    expect(batches).toEqual([1, 200, 200, 50]);
  });

  it('lets go of written rows while later ones still wait in the queue', async () => {
    // A full collection on demand (the flag is set for this process; `gc` is taken from a new context).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    let written = 0;
    const writer = createOpLogWriter({
      sink: { insertMany: async (rows) => (written += rows.length) },
      logger: silentLogger,
      flushIntervalMs: 600_000,
      batchSize: 2,
    });
    // Built in a function of their own, so that nothing in this one refers to the first two rows.
    const watched = (() => {
      const first = [row(1), row(2)];
      for (const r of [...first, row(3)]) writer.enqueue(r);
      return first.map((r) => new WeakRef(r));
    })();
    for (let turn = 0; turn < 3; turn++) await new Promise((r) => setImmediate(r));
    expect(written).toBe(2);
    expect(writer.stats().queued).toBe(1);
    gc();
    // A WeakRef's target is kept until the current job ends: look after a turn of the event loop.
    await new Promise((r) => setImmediate(r));
    expect(watched.map((w) => w.deref())).toEqual([undefined, undefined]);
    expect(await writer.drain(5000)).toMatchObject({ queued: 0, written: 3 });
  });

  it('drops the oldest rows when full and warns near the cap', async () => {
    const lines: string[] = [];
    const stored: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const writer = createOpLogWriter({
      sink: {
        insertMany: async (rows) => {
          await gate;
          stored.push(...rows.map((r) => r.title));
          return rows.length;
        },
      },
      logger: createConsoleLogger({ sink: (l) => lines.push(l) }),
      capacity: 10,
      batchSize: 5,
    });
    await writer.write(row(0));
    await new Promise((r) => setImmediate(r)); // the first batch (row 0) is now in flight
    for (let i = 1; i <= 15; i++) await writer.write(row(i));
    expect(writer.stats()).toMatchObject({ queued: 10, dropped: 5 });
    expect(lines.some((l) => l.includes('above 80 %'))).toBe(true);
    expect(lines.some((l) => l.includes('dropped the oldest'))).toBe(true);
    release();
    await writer.drain(5000);
    expect(stored).toEqual(['op 0', ...Array.from({ length: 10 }, (_, i) => `op ${i + 6}`)]);
  });

  it('drain waits for a slow store up to its time limit and reports what is left', async () => {
    let stored = 0;
    const writer = createOpLogWriter({
      sink: {
        insertMany: async (rows) => {
          await new Promise((r) => setTimeout(r, 30));
          stored += rows.length;
          return rows.length;
        },
      },
      logger: silentLogger,
      batchSize: 10,
    });
    for (let i = 0; i < 50; i++) await writer.write(row(i));
    const early = await writer.drain(0);
    expect(early.queued + stored).toBeLessThan(50 + 1);
    expect(stored).toBeLessThan(50);
    const done = await writer.drain(5000);
    expect(done).toMatchObject({ queued: 0, written: 50 });
    expect(stored).toBe(50);
  });

  it('writes before returning in sync mode', async () => {
    const stored: NewOpLog[] = [];
    const writer = createOpLogWriter({
      sink: {
        insertMany: async (rows) => {
          stored.push(...rows);
          return rows.length;
        },
      },
      logger: silentLogger,
      sync: true,
    });
    await writer.write(row(1));
    expect(stored).toHaveLength(1);
  });
});
