/**
 * The last few results of a pure function, by a string key. One context build asks the same
 * questions of the same query many times (its date windows, the zone's offset at `now`, the
 * recall config): each is computed once. Results are shared between callers, so they must be
 * treated as read-only (the callers here freeze them). Past `size` keys the oldest is dropped.
 */
export function recentResults<V>(size: number): (key: string, compute: () => V) => V {
  const held = new Map<string, V>();
  return (key, compute) => {
    if (held.has(key)) return held.get(key)!;
    const value = compute();
    if (held.size >= size) held.delete(held.keys().next().value!);
    held.set(key, value);
    return value;
  };
}
