/** Deepest nesting accepted in user JSON (structuredData, imports): far beyond real data, far below the stack. */
export const MAX_JSON_DEPTH = 64;

/**
 * Why a value cannot be stored as JSON, or undefined when it can: a cycle, a BigInt, a function or
 * symbol, a non-finite number, or nesting deeper than `maxDepth`. Walks iteratively, so a
 * deeply nested value is refused instead of overflowing the stack.
 */
export function jsonProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): string | undefined {
  const stack: Array<{ value: unknown; depth: number; path: string; ancestors: ReadonlySet<object> }> = [{ value, depth: 0, path: '(root)', ancestors: new Set() }];
  while (stack.length > 0) {
    const { value: v, depth, path, ancestors } = stack.pop()!;
    switch (typeof v) {
      case 'bigint':
        return `${path} is a BigInt, which JSON cannot hold`;
      case 'function':
      case 'symbol':
        return `${path} is a ${typeof v}, which JSON cannot hold`;
      case 'number':
        if (!Number.isFinite(v)) return `${path} is ${String(v)}, which JSON cannot hold`;
        continue;
      case 'object': {
        if (v === null || v instanceof Date) continue;
        if (ancestors.has(v)) return `${path} refers back to itself (a cycle)`;
        if (depth >= maxDepth) return `${path} is nested more than ${maxDepth} levels deep`;
        const inside = new Set(ancestors).add(v);
        const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
        for (const [k, x] of entries) stack.push({ value: x, depth: depth + 1, path: path === '(root)' ? k : `${path}.${k}`, ancestors: inside });
        continue;
      }
      default:
        continue;
    }
  }
  return undefined;
}
