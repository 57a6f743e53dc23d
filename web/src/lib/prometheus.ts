/** One sample of the Prometheus text format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses `/metrics` text (prom-client's output); comments and unparsable lines are left out. */
export function parseMetrics(text: string): Sample[] {
  const out: Sample[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const value = Number(m[3]);
    if (Number.isNaN(value)) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL)) labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_s, c: string) => (c === 'n' ? '\n' : c));
    out.push({ name: m[1]!, labels, value });
  }
  return out;
}

/** Sums the samples of one metric by one label ("kind", "prompt"…), optionally only those whose labels match `where`. */
export function sumBy(samples: readonly Sample[], name: string, label: string, where: Record<string, string> = {}): Map<string, number> {
  const sums = new Map<string, number>();
  for (const s of samples) {
    if (s.name !== name) continue;
    if (Object.entries(where).some(([k, v]) => k in s.labels && s.labels[k] !== v)) continue;
    const key = s.labels[label] ?? '';
    sums.set(key, (sums.get(key) ?? 0) + s.value);
  }
  return sums;
}

/** Histogram buckets of one metric (summed over other labels), as [upper bound, cumulative count]. */
export function buckets(samples: readonly Sample[], name: string): Array<[number, number]> {
  const byLe = sumBy(samples, `${name}_bucket`, 'le');
  return [...byLe.entries()]
    .map(([le, n]): [number, number] => [le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le), n])
    .sort((x, y) => x[0] - y[0]);
}
