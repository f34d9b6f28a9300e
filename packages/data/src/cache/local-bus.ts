/**
 * In-process publish/subscribe for the memory provider. Messages travel as JSON text and every subscriber
 * parses its own copy, so a handler sees exactly what a Redis subscriber would and cannot mutate what another
 * handler receives.
 */
import type { MessageHandler, Unsubscribe } from './port.js';
import { type CacheErrorReporter, deliver } from './shared.js';

type Listener = (json: string) => void;

export class LocalBus {
  readonly #channels = new Map<string, Set<Listener>>();
  readonly #onError: CacheErrorReporter;

  constructor(onError: CacheErrorReporter) {
    this.#onError = onError;
  }

  /** Delivers to the current subscribers before returning. */
  publish(channel: string, json: string): void {
    const listeners = this.#channels.get(channel);
    if (listeners === undefined) return;
    for (const listener of [...listeners]) listener(json);
  }

  subscribe<T>(channel: string, handler: MessageHandler<T>): Unsubscribe {
    // A fresh closure per call, so subscribing the same handler twice yields two independent subscriptions.
    const listener: Listener = (json) => deliver(handler, JSON.parse(json) as T, this.#onError);
    let listeners = this.#channels.get(channel);
    if (listeners === undefined) {
      listeners = new Set();
      this.#channels.set(channel, listeners);
    }
    listeners.add(listener);
    return async () => {
      const current = this.#channels.get(channel);
      if (current === undefined) return;
      current.delete(listener);
      if (current.size === 0) this.#channels.delete(channel);
    };
  }

  clear(): void {
    this.#channels.clear();
  }
}
