/**
 * Drops a per-user cache's least recently used entries (a Map keeps insertion order, and the
 * caches re-insert an entry on each use) until their bytes fit `maxBytes` and there are at most
 * `maxEntries`, always keeping the newest one. `dropped` hears each evicted key, for the caller's side tables.
 */
export function evictOverBudget<V extends { readonly bytes: number }>(entries: Map<string, V>, maxBytes: number, dropped: (key: string) => void, maxEntries = Infinity): void {
  let total = 0;
  for (const v of entries.values()) total += v.bytes;
  for (const [key, v] of entries) {
    if ((total <= maxBytes && entries.size <= maxEntries) || entries.size <= 1) break;
    entries.delete(key);
    dropped(key);
    total -= v.bytes;
  }
}
