/**
 * The pipeline with a stage that has an `around` form (the operation log): it adds no promise to a route that
 * answers synchronously, and keeps compose's semantics (a failure below the stage is the error handler's
 * response in `c.res` by the time the stage looks at it), whether the route answers now or later.
 */
import { Context } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../context.js';
import { createPipeline, type PipelineResult } from './pipeline.js';

function world() {
  const seen: string[] = [];
  const pipeline = createPipeline({
    quick: () => true,
    first: async (_c, next) => next(),
    stages: [
      {
        applies: () => true,
        run: async () => {
          throw new Error('run must not be used when around is given');
        },
        around(c, next): PipelineResult {
          const answer = next();
          const after = () => seen.push(`status ${c.res.status}`);
          if (answer instanceof Promise) {
            return answer.then((r) => {
              after();
              return r;
            });
          }
          after();
          return answer;
        },
      },
    ],
    onError: (error, c) => c.json({ code: 50000, message: error.message }, 500),
  });
  const context = () => new Context<AppEnv>(new Request('http://host/api/v1/x', { method: 'POST' }));
  return { pipeline, context, seen };
}

describe('pipeline stage with around', () => {
  it('answers a synchronous route synchronously, after the stage saw its response', () => {
    const { pipeline, context, seen } = world();
    const c = context();
    const answer = pipeline.run(c, () => c.json({ code: 0 }, 201));
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(201);
    expect(seen).toEqual(['status 201']);
  });

  it('turns a synchronous throw below the stage into the error response, which the stage sees', () => {
    const { pipeline, context, seen } = world();
    const c = context();
    const answer = pipeline.run(c, () => {
      throw new Error('boom');
    });
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(500);
    expect(c.error?.message).toBe('boom');
    expect(seen).toEqual(['status 500']);
  });

  it('waits for an asynchronous route, and for its rejection turned into the error response', async () => {
    const { pipeline, context, seen } = world();
    const ok = context();
    const later = pipeline.run(ok, async () => ok.json({ code: 0 }, 200));
    expect(later).toBeInstanceOf(Promise);
    expect(((await later) as Response).status).toBe(200);
    const failing = context();
    const rejected = pipeline.run(failing, async () => {
      throw new Error('later');
    });
    expect(((await rejected) as Response).status).toBe(500);
    expect(failing.res.status).toBe(500);
    expect(seen).toEqual(['status 200', 'status 500']);
  });

  it('throws on what is not an Error, as compose does', () => {
    const { pipeline, context } = world();
    const c = context();
    expect(() =>
      pipeline.run(c, () => {
        throw 'not an error';
      }),
    ).toThrow();
  });
});
