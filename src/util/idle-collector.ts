import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Moves young-generation garbage collection out of requests. A scavenge pauses the thread for
 * as long as it copies what is still alive: on the chat proxy's thread, with the context build's
 * working set alive, one fell inside 28–37 of 300 requests and took 3.2–3.8 ms on average
 * (bench/results/2026-11-26-s11-proxy.md). Once no request is in flight, what they allocated is
 * garbage and the same collection is cheap and delays nobody: `idleCollection()` is an
 * `Activity`'s `onIdle` (activity.ts) that runs it then, when the young generation is at least
 * `fill` full, so the next request starts with room to allocate.
 */
export interface IdleCollectionOptions {
  /**
   * Share of the young generation's committed size in use from which an idle moment collects.
   * V8 commits both semispaces and allocates in one, so 0.25 is half of what a request can
   * allocate before V8 would scavenge in its middle. @default 0.25
   */
  fill?: number;
  /** Bytes in use and capacity of the young generation. @default V8's new space */
  youngSpace?: () => { used: number; size: number };
  /** Collects the young generation. @default a V8 minor GC */
  collect?: () => void;
}

/** The young generation's bytes in use and committed size, as V8 reports its "new_space". */
export function v8YoungSpace(): { used: number; size: number } {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  return space ? { used: space.space_used_size, size: space.space_size } : { used: 0, size: 0 };
}

type GcFunction = (options: { type: 'minor' | 'major'; execution: 'sync' | 'async' }) => void;
let gc: GcFunction | undefined;

/**
 * A synchronous V8 minor GC. The gc function is exposed once, in a fresh context only (as Jest
 * does for its leak detector): this process's own global object gains no `gc`.
 */
export function v8MinorGc(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as GcFunction;
  }
  gc({ type: 'minor', execution: 'sync' });
}

/** The idle moment's check: collects the young generation when it is at least `fill` full. */
export function idleCollection(options: IdleCollectionOptions = {}): () => void {
  const fill = options.fill ?? 0.25;
  const youngSpace = options.youngSpace ?? v8YoungSpace;
  const collect = options.collect ?? v8MinorGc;
  return () => {
    const { used, size } = youngSpace();
    if (size > 0 && used >= fill * size) collect();
  };
}
