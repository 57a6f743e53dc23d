import { createHash } from 'node:crypto';
import { StaleVersionError } from '../errors.js';
import type { Memory } from './memory.js';

/**
 * Fields that change without anyone changing what the memory says: recall's access marks, the
 * embedder that indexed it (a background embed or a reindex), and the review and decay bookkeeping
 * (a decay's effect shows in `importance`). An editor open while these move has lost nothing.
 */
const BOOKKEEPING = new Set<string>(['lastAccessedAt', 'accessCount', 'embedderId', 'reviewedAt', 'decayedAt']);

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

/** Throws PRECONDITION_FAILED unless the memory is at one of the versions a change was based on. */
export function assertVersion(memory: Memory, ifVersion: readonly string[] | undefined): void {
  if (ifVersion === undefined) return;
  const current = memoryVersion(memory);
  if (!ifVersion.includes(current)) throw new StaleVersionError(memory.id, ifVersion, current);
}
