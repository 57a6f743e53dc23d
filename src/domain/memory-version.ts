import { createHash } from 'node:crypto';
import { StaleVersionError } from '../errors.js';
import type { HistoryEvent } from './history.js';
import type { Memory } from './memory.js';

/**
 * Fields that change without anyone changing what the memory says: recall's access marks, the
 * embedder that indexed it (a background embed or a reindex), the review and decay bookkeeping, and
 * the time of the last write (every write that matters changes another field too).
 */
const BOOKKEEPING = new Set<string>(['lastAccessedAt', 'accessCount', 'embedderId', 'reviewedAt', 'decayedAt', 'updatedAt']);

/**
 * The version of a memory's state: a hash of every field but the bookkeeping above, so it changes
 * whenever a change is made to the memory, by anyone, in any process; the same state gives the same
 * version in every store. It is the HTTP ETag of the memory and what `update(…, { ifVersion })`
 * compares inside the store's write, so a change based on an older version is refused, not applied.
 */
export function memoryVersion(memory: Memory): string {
  const state = Object.fromEntries(Object.entries(memory).filter(([k, v]) => v !== undefined && !BOOKKEEPING.has(k)));
  return createHash('sha256').update(canonical(state)).digest('base64url').slice(0, 22);
}

/**
 * JSON with object keys sorted at every depth: one text per state. JSON's own rules otherwise (a
 * date as its ISO string), so structured data read back from a store's JSON text hashes as written.
 */
function canonical(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonical(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Changes Engram makes by itself to how much a memory weighs, never to what it says: the lifecycle's
 * decay, and reinforcement (used in a reply, or said again). Only `importance` moves (and the decay
 * clock, which is bookkeeping).
 */
const DRIFT_ACTIONS = new Set<string>(['decay', 'reinforce']);
const DRIFT_FIELDS = new Set<string>(['importance', 'decayedAt']);
const isDrift = (e: HistoryEvent): boolean =>
  DRIFT_ACTIONS.has(e.action) && e.changed.length > 0 && e.changed.every((f) => DRIFT_FIELDS.has(f)) && typeof e.before?.importance === 'number';

/** How many of a memory's latest history events a version check may look through. */
export const DRIFT_LOOKBACK = 100;

/**
 * Whether the memory is at one of the versions a change was based on, or was at it before only
 * drift (decay, reinforcement: importance alone, made by Engram itself) moved it since. `drift` is
 * the memory's latest history, newest first, or [] when the change sets importance itself (then
 * any change since counts). An editor left open over a night's decay can still save its content,
 * kind or status; a change a person or a pipeline made since is still a conflict.
 */
export function atVersion(memory: Memory, ifVersion: readonly string[], drift: readonly HistoryEvent[] = []): boolean {
  let state = memory;
  if (ifVersion.includes(memoryVersion(state))) return true;
  for (const event of drift) {
    if (!isDrift(event)) return false;
    state = { ...state, importance: event.before!.importance as number };
    if (ifVersion.includes(memoryVersion(state))) return true;
  }
  return false;
}

/**
 * Throws PRECONDITION_FAILED unless the memory is at one of the versions a change was based on (or
 * only drifted from it: see atVersion; `drift` newest first).
 */
export function assertVersion(memory: Memory, ifVersion: readonly string[] | undefined, drift: readonly HistoryEvent[] = []): void {
  if (ifVersion === undefined || atVersion(memory, ifVersion, drift)) return;
  throw new StaleVersionError(memory.id, ifVersion, memoryVersion(memory));
}
