/**
 * The system clock as the services take it (`() => Date`; tests inject their own), and its epoch-millisecond
 * form. A request path that only compares times asks {@link epochMs}: on the system clock that is `Date.now`
 * and no `Date` is made per request; on an injected clock it reads the injected time.
 */

/** The system clock. Compare against it with `===`: {@link epochMs} does. */
export const systemNow = (): Date => new Date();

/** The clock in epoch milliseconds: `Date.now` for {@link systemNow}, the injected time otherwise. */
export function epochMs(now: () => Date): () => number {
  return now === systemNow ? Date.now : () => now().getTime();
}
