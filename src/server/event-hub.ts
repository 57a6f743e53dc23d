import type { EngramEvent, EventSink } from '../events.js';

type Listener = (event: EngramEvent) => void;

/** Fans engine events out to subscribers (the SSE streams); a slow subscriber never blocks the engine. */
export interface EventHub extends EventSink {
  subscribe(listener: Listener): () => void;
  readonly size: number;
}

export function createEventHub(): EventHub {
  const listeners = new Set<Listener>();
  return {
    emit(event) {
      for (const l of listeners) l(event);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get size() {
      return listeners.size;
    },
  };
}
