/**
 * What a spill replay asks the database (host/op-log-writer.ts): which of its rows are stored already, looked for among
 * the rows of the batch's own time span (the time index; trace ids have none), widened for a column that rounds.
 */
import type { TimeSpan } from '@svc/data';
import { opLogRow } from '@svc/data/testing';
import { describe, expect, it } from 'vitest';
import { storedOpLogRows } from './op-log-writer.js';

const row = (traceId: string | null, createTime: Date | number) => opLogRow({ traceId, createTime });

describe('the stored rows of a replayed batch', () => {
  it('asks for its trace ids within its time span and a second either side, and answers their indexes', async () => {
    const asked: { ids: readonly string[]; within: TimeSpan | undefined }[] = [];
    const repo = {
      async storedTraceIds(ids: readonly string[], within?: TimeSpan) {
        asked.push({ ids, within });
        return new Set(['b', 'd']);
      },
    };
    const t0 = 1_795_000_000_000;
    // Times as queued (numbers) and as revived from an old spill (Dates); a row without a trace id.
    const rows = [row('a', t0 + 5), row('b', new Date(t0 - 20)), row(null, t0), row('d', t0 + 900)];
    expect([...(await storedOpLogRows(repo, rows))].sort()).toEqual([1, 3]);
    expect(asked).toEqual([
      { ids: ['a', 'b', 'd'], within: { from: t0 - 20 - 1_000, to: t0 + 900 + 1_000 } },
    ]);
  });
});
