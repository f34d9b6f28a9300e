/**
 * The bound on what one user may send to the hub: a token bucket per user and instance (hub.ts shares it between
 * the user's sockets there), `burst` frames at once, refilled at `perSecond` on the service clock
 * (`Service:Realtime:MessageBurst` / `MessagesPerSecond`). Plain data and one function, so the rule is tested without
 * a socket.
 */

/** The rate of a bucket. */
export interface MessageRate {
  /** Frames a user may send at once (the bucket's size). */
  burst: number;
  /** Frames a second the bucket refills with. */
  perSecond: number;
}

/** One user's bucket (on one instance). */
export interface MessageBucket {
  /** Frames it may still send (fractional between refills). */
  tokens: number;
  /** Service-clock ms of the last refill. */
  at: number;
}

/**
 * A full bucket at service-clock ms `now` (a user new to this instance, or whose bucket has refilled, may send their
 * burst).
 */
export function fullBucket(rate: MessageRate, now: number): MessageBucket {
  return { tokens: rate.burst, at: now };
}

/**
 * Takes one frame from `bucket` at service-clock ms `now`: false when it is empty (the user sends faster than
 * `rate`). A clock that moves back refills nothing, and never twice for the same span.
 */
export function takeMessage(bucket: MessageBucket, rate: MessageRate, now: number): boolean {
  if (now > bucket.at) {
    bucket.tokens = Math.min(rate.burst, bucket.tokens + ((now - bucket.at) * rate.perSecond) / 1000);
    bucket.at = now;
  }
  if (bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
}

/**
 * Whether `bucket` has refilled by service-clock ms `now`: only then may it be forgotten (a user who reconnects gets a
 * full bucket either way). One that has not refilled is kept after the user's last socket closes, or closing and
 * reopening a socket would refill it at once.
 */
export function isRefilled(bucket: MessageBucket, rate: MessageRate, now: number): boolean {
  return bucket.tokens + (Math.max(0, now - bucket.at) * rate.perSecond) / 1000 >= rate.burst;
}
