/**
 * The exception-log flood guard (issue 11, contract §11): identical exceptions within the window are stored as
 * the first one and one folded row, written at the first repeat and kept up to date, with the count and the first
 * 100 trace ids; numbers and ids in messages and paths do not make exceptions different; other exceptions are
 * still stored. The clock is the test's.
 */
import { silentLogger } from '@svc/kernel';
import { describe, expect, it } from 'vitest';
import {
  createExceptionRecorder,
  EXCEPTION_WINDOW_MS,
  type ExceptionLogEntry,
  type ExceptionLogSink,
  exceptionShape,
} from './exception-log.js';

function setup(options: { fold?: boolean } = {}) {
  const rows: ExceptionLogEntry[] = [];
  let writes = 0;
  let at = Date.UTC(2026, 0, 1);
  const sink: ExceptionLogSink = {
    insert: async (r) => {
      writes++;
      return rows.push({ ...r }) - 1;
    },
  };
  if (options.fold !== false)
    sink.fold = async (id, fold) => {
      writes++;
      await Promise.resolve();
      Object.assign(rows[id] as ExceptionLogEntry, { message: fold.message, traceIds: [...fold.traceIds] });
    };
  const recorder = createExceptionRecorder({
    sink,
    logger: silentLogger,
    now: () => new Date(at),
    flushEveryMs: 0,
  });
  return {
    rows,
    recorder,
    writes: () => writes,
    advance(ms: number) {
      at += ms;
    },
  };
}

const ctx = (n: number, path = `/api/v1/sys/user/${n}`) => ({ method: 'PUT', path, traceId: `t${n}` });

describe('exception flood guard', () => {
  it('stores a burst of identical exceptions as two rows, the folded one keeping the first 100 trace ids', async () => {
    const { rows, recorder, advance, writes } = setup();
    await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        recorder.record(
          new TypeError(`Cannot read properties of undefined (reading 'x') at row ${i}`),
          ctx(i),
        ),
      ),
    );
    // Written at once, not at the window's end: the second row already stands for the repeats so far.
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ exceptionType: 'TypeError', traceId: 't0' });
    expect(rows[0]?.traceIds).toBeUndefined();
    expect(rows[1]).toMatchObject({ exceptionType: 'TypeError', traceId: 't1', httpMethod: 'PUT' });
    expect(rows[1]?.traceIds).toEqual(Array.from({ length: 100 }, (_, i) => `t${i + 1}`));
    // Repeats that came while a write was in flight shared the next one: far fewer writes than repeats.
    expect(writes()).toBeLessThan(10);

    await recorder.flush?.();
    advance(EXCEPTION_WINDOW_MS);
    await recorder.flush?.();
    expect(rows).toHaveLength(2);
    expect(rows[1]?.message).toMatch(/^\[repeated 499 times in 60 s\] Cannot read properties/);
    expect(rows[1]?.traceIds).toHaveLength(100);

    // A new window starts with a row of its own.
    await recorder.record(
      new TypeError("Cannot read properties of undefined (reading 'x') at row 7"),
      ctx(7),
    );
    expect(rows).toHaveLength(3);
  });

  it("has a repeat's trace id stored when its record returns, one repeat after another", async () => {
    const { rows, recorder, advance } = setup();
    await recorder.record(new Error('same'), ctx(1, '/a'));
    for (let i = 2; i <= 5; i++) {
      advance(1000);
      await recorder.record(new Error('same'), ctx(i, '/a'));
      expect(rows).toHaveLength(2);
      expect(rows[1]?.traceIds).toEqual(Array.from({ length: i - 1 }, (_, k) => `t${k + 2}`));
      expect(rows[1]?.message).toBe(`[repeated ${i - 1} times in 60 s] same`);
    }
    // Past the window: the next one is a row of its own, the folded row keeps its four.
    advance(EXCEPTION_WINDOW_MS);
    await recorder.record(new Error('same'), ctx(6, '/a'));
    expect(rows.map((r) => r.traceId)).toEqual(['t1', 't2', 't6']);
    expect(rows[1]?.message).toBe('[repeated 4 times in 60 s] same');
  });

  it('gives a sink that cannot fold the folded row at the window end, with its trace ids', async () => {
    const { rows, recorder } = setup({ fold: false });
    for (let i = 1; i <= 3; i++) await recorder.record(new Error('x'), ctx(i, '/b'));
    expect(rows).toHaveLength(1);
    await recorder.flush?.(true);
    expect(rows[1]).toMatchObject({ message: '[repeated 2 times in 60 s] x', traceIds: ['t2', 't3'] });
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
      // The repeat of the first, folded into a row of its own at once.
      'TypeError PUT /api/v1/sys/user/6 [repeated 1 times in 60 s] a failed',
    ]);
  });

  it('writes the summaries of every open window at shutdown, and none for a single occurrence', async () => {
    const { rows, recorder } = setup();
    await recorder.record(new Error('once'), ctx(1, '/a'));
    await recorder.record(new Error('twice'), ctx(2, '/b'));
    await recorder.record(new Error('twice'), ctx(3, '/b'));
    await recorder.flush?.(true);
    expect(rows.map((r) => r.message)).toEqual(['once', 'twice', '[repeated 1 times in 60 s] twice']);
    expect(rows[2]?.traceIds).toEqual(['t3']);
  });

  it('normalises numbers, UUIDs and hex ids', () => {
    expect(
      exceptionShape('user 12 at 3.5 ms, id 0b3f6c8e-1d2a-4c5b-9e7f-0a1b2c3d4e5f, key deadbeefdeadbeef00'),
    ).toBe('user {n} at {n} ms, id {id}, key {id}');
  });
});
