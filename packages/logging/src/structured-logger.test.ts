import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createStructuredLogger } from './structured-logger.js';

function collector() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, destination };
}

describe('structured logger', () => {
  it('writes JSON lines with time, level, category, message and fields', () => {
    const { lines, destination } = collector();
    const log = createStructuredLogger({ format: 'json', destination });
    log.child('Service.Auth').warn('locked', { account: 'bob', error: new Error('x') });
    const entry = JSON.parse(lines[0] ?? '{}');
    expect(entry).toMatchObject({ level: 'warn', category: 'Service.Auth', msg: 'locked', account: 'bob' });
    expect(entry.error).toEqual({ type: 'Error', message: 'x' });
    expect(new Date(entry.time).toISOString()).toBe(entry.time);
  });

  it('applies the level of the longest matching category prefix', () => {
    const { lines, destination } = collector();
    const log = createStructuredLogger({
      format: 'json',
      destination,
      levels: { Default: 'Warning', 'Service.Sql': 'Information', 'Service.Sql.Slow': 'None' },
    });
    log.child('Service.Other').info('hidden');
    log.child('Service.Sql').info('shown');
    log.child('Service.Sql.Slow').warn('muted');
    expect(log.child('Service.Sql').isEnabled('Debug')).toBe(false);
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(['shown']);
  });
});
