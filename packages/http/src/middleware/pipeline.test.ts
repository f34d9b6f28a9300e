/**
 * The pipeline with a stage that has an `around` form, or `enter` and `leave` halves (the operation log): it adds
 * no promise to a route that answers synchronously, and keeps compose's semantics (a failure below the stage is
 * the error handler's response in `c.res` by the time the stage looks at it), whether the route answers now or
 * later.
 */
import { Context, type ErrorHandler } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../context.js';
import { createPipeline, type PipelineResult, type Stage } from './pipeline.js';

/** A pipeline of these stages, its first stage passing through (`onError` as the app's, synchronous by default). */
function pipelineOf(stages: Stage[], onError: ErrorHandler<AppEnv> = (error, c) => errorAnswer(error, c)) {
  return createPipeline({ quick: () => true, first: async (_c, next) => next(), stages, onError });
}

const errorAnswer = (error: Error, c: Context<AppEnv>) =>
  c.json({ code: 50000, message: error.message }, 500);

/** A POST to the API, as a context of its own. */
const postContext = (): Context<AppEnv> =>
  new Context<AppEnv>(new Request('http://host/api/v1/x', { method: 'POST' }));

type Form = 'around' | 'enter and leave';

function world(form: Form) {
  /** The status each request's stage saw after the rest answered. */
  const seen: string[] = [];
  /** Requests whose `enter` ran. */
  const entered: Context<AppEnv>[] = [];
  const run: Stage['run'] = async () => {
    throw new Error('run must not be used when around or leave is given');
  };
  const stage: Stage =
    form === 'around'
      ? {
          applies: () => true,
          run,
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
        }
      : {
          applies: () => true,
          run,
          enter: (c) => {
            entered.push(c);
            return entered.length;
          },
          leave: (c, token, res) => {
            // Its own request's token, and the response compose would have kept.
            expect(entered[token - 1]).toBe(c);
            expect(res).toBe(c.res);
            seen.push(`status ${c.res.status}`);
            return res;
          },
        };
  return { pipeline: pipelineOf([stage]), context: postContext, seen };
}

describe.each<Form>(['around', 'enter and leave'])('pipeline stage with %s', (form) => {
  it('answers a synchronous route synchronously, after the stage saw its response', () => {
    const { pipeline, context, seen } = world(form);
    const c = context();
    const answer = pipeline.run(c, () => c.json({ code: 0 }, 201));
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(201);
    expect(seen).toEqual(['status 201']);
  });

  it('turns a synchronous throw below the stage into the error response, which the stage sees', () => {
    const { pipeline, context, seen } = world(form);
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
    const { pipeline, context, seen } = world(form);
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
    const { pipeline, context } = world(form);
    const c = context();
    expect(() =>
      pipeline.run(c, () => {
        throw 'not an error';
      }),
    ).toThrow();
  });
});

describe('pipeline stage with enter and leave', () => {
  it('leaves an asynchronous route in the callback its answer settles in (no turn of its own)', async () => {
    const { pipeline, context, seen } = world('enter and leave');
    const c = context();
    const answer = pipeline.run(c, async () => c.json({ code: 0 }, 200));
    // The route's promise is settled now; one turn of the microtask queue runs the callbacks registered on it.
    await null;
    expect(seen).toEqual(['status 200']);
    expect(((await answer) as Response).status).toBe(200);
  });

  it('runs the stages after it before the route, and sees what they answered', async () => {
    const order: string[] = [];
    const pipeline = pipelineOf([
      {
        applies: () => true,
        run: async () => {},
        enter: () => {
          order.push('enter');
          return 1;
        },
        leave: (c, _token, res) => {
          order.push(`leave ${c.res.status}`);
          return res;
        },
      },
      {
        applies: () => true,
        run: async (c, next) => {
          order.push('inner stage');
          await next();
          c.res = c.json({ code: 40000 }, 400);
        },
      },
    ]);
    const c = postContext();
    await pipeline.run(c, async () => {
      order.push('route');
      return c.json({ code: 0 }, 200);
    });
    expect(order).toEqual(['enter', 'inner stage', 'route', 'leave 400']);
    expect(c.res.status).toBe(400);
  });

  it('answers once the promise leave answers has settled (a row that must read the body first)', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const order: string[] = [];
    const pipeline = pipelineOf([
      {
        applies: () => true,
        run: async () => {},
        enter: () => 0,
        leave: (_c, _token, res) =>
          held.then(() => {
            order.push('recorded');
            return res;
          }),
      },
    ]);
    const c = postContext();
    const answer = Promise.resolve(pipeline.run(c, () => c.json({ code: 0 }))).then((r) => {
      order.push('answered');
      return r as Response;
    });
    await Promise.resolve();
    expect(order).toEqual([]);
    release();
    expect((await answer).status).toBe(200);
    expect(order).toEqual(['recorded', 'answered']);
  });
});

describe('pipeline stage whose leave fails', () => {
  const failing = (fail: 'throws' | 'rejects') =>
    pipelineOf(
      [
        {
          applies: () => true,
          run: async () => {},
          leave: () => {
            if (fail === 'throws') throw new Error('row lost');
            return Promise.reject(new Error('row lost'));
          },
        },
      ],
      async (error, c) => errorAnswer(error, c),
    );

  for (const fail of ['throws', 'rejects'] as const) {
    it(`answers the error handler's response when leave ${fail}, for a route answering now or later`, async () => {
      for (const later of [false, true]) {
        const c = postContext();
        const route = () => c.json({ code: 0 }, 201);
        const answer = await failing(fail).run(c, later ? async () => route() : route);
        expect((answer as Response).status).toBe(500);
        expect(c.res.status).toBe(500);
        expect(c.error?.message).toBe('row lost');
      }
    });
  }
});
