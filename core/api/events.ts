import type { EventName, EventPayload } from './contract.js';

export type EventListener = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

/**
 * A tiny typed event bus. It is plain TypeScript (no node:events) so the contract room stays
 * importable from any runtime. A throwing listener never breaks the emitter or its siblings.
 */
export class EventBus {
  readonly #listeners = new Set<EventListener>();

  emit<E extends EventName>(name: E, payload: EventPayload<E>): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(name, payload);
      } catch {
        // A faulty subscriber (a closed socket, a destroyed window) must not stop delivery to others.
      }
    }
  }

  /** Subscribes to every event; returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get size(): number {
    return this.#listeners.size;
  }
}
