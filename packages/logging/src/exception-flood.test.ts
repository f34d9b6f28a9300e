/**
 * The exception-log flood guard (issue 11): identical exceptions within the window are stored once, with one
 * summary row carrying the count when the window ends; numbers and ids in messages and paths do not make
 * exceptions different; other exceptions are still stored. The clock is the test's.
 */
import { silentLogger } from '@svc/kernel';
import { describe, expect, it } from 'vitest';
import {
  createExceptionRecorder,
  EXCEPTION_WINDOW_MS,
  type ExceptionLogEntry,
  exceptionShape,
} from './exception-log.js';

function setup() {
  const rows: ExceptionLogEntry[] = [];
  let at = Date.UTC(2026, 0, 1);
  const recorder = createExceptionRecorder({
    sink: { insert: async (r) => rows.push(r) },
    logger: silentLogger,
    now: () => new Date(at),
    flushEveryMs: 0,
  });
  return {
    rows,
    recorder,
    advance(ms: number) {
      at += ms;
    },
  };
}

const ctx = (n: number, path = `/api/v1/sys/user/${n}`) => ({ method: 'PUT', path, traceId: `t${n}` });

describe('exception flood guard', () => {
  it('stores a burst of identical exceptions once, then one summary row with the count', async () => {
    const { rows, recorder, advance } = setup();
    await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        recorder.record(
          new TypeError(`Cannot read properties of undefined (reading 'x') at row ${i}`),
          ctx(i),
        ),
      ),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ exceptionType: 'TypeError', traceId: 't0' });

    await recorder.flush?.();
    expect(rows).toHaveLength(1);
    advance(EXCEPTION_WINDOW_MS);
    await recorder.flush?.();
    expect(rows).toHaveLength(2);
    expect(rows[1]?.message).toMatch(/^\[repeated 499 times in 60 s\] Cannot read properties/);
    expect(rows[1]).toMatchObject({ exceptionType: 'TypeError', traceId: 't1', httpMethod: 'PUT' });

    // A new window starts with a row of its own.
    await recorder.record(
      new TypeError("Cannot read properties of undefined (reading 'x') at row 7"),
      ctx(7),
    );
    expect(rows).toHaveLength(3);
  });

  it('keeps different types, messages and routes apart', async () => {
    const { rows, recorder } = setup();
    await recorder.record(new TypeError('a failed'), ctx(1));
    await recorder.record(new RangeError('a failed'), ctx(2));
    await recorder.record(new TypeError('b failed'), ctx(3));
    await recorder.record(new TypeError('a failed'), ctx(4, '/api/v1/sys/role/4'));
    await recorder.record(new TypeError('a failed'), { ...ctx(5), method: 'DELETE' });
    await recorder.record(new TypeError('a failed'), ctx(6));
    expect(rows.map((r) => `${r.exceptionType} ${r.httpMethod} ${r.path} ${r.message}`)).toEqual([
      'TypeError PUT /api/v1/sys/user/1 a failed',
      'RangeError PUT /api/v1/sys/user/2 a failed',
      'TypeError PUT /api/v1/sys/user/3 b failed',
      'TypeError PUT /api/v1/sys/role/4 a failed',
      'TypeError DELETE /api/v1/sys/user/5 a failed',
    ]);
  });

  it('writes the summaries of every open window at shutdown, and none for a single occurrence', async () => {
    const { rows, recorder } = setup();
    await recorder.record(new Error('once'), ctx(1, '/a'));
    await recorder.record(new Error('twice'), ctx(2, '/b'));
    await recorder.record(new Error('twice'), ctx(3, '/b'));
    await recorder.flush?.(true);
    expect(rows.map((r) => r.message)).toEqual(['once', 'twice', '[repeated 1 times in 60 s] twice']);
  });

  it('normalises numbers, UUIDs and hex ids', () => {
    expect(
      exceptionShape('user 12 at 3.5 ms, id 0b3f6c8e-1d2a-4c5b-9e7f-0a1b2c3d4e5f, key deadbeefdeadbeef00'),
    ).toBe('user {n} at {n} ms, id {id}, key {id}');
  });
});
