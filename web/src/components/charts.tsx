/** Small SVG charts drawn by hand: no chart library, works offline. */

export interface Bar {
  label: string;
  value: number;
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toPrecision(3));

export function BarChart({ bars, title, width = 520 }: { bars: Bar[]; title: string; width?: number }) {
  const row = 26;
  const labelW = 150;
  const height = Math.max(row, bars.length * row) + 8;
  const max = Math.max(1, ...bars.map((b) => b.value));
  return (
    <svg class="chart" role="img" aria-label={title} width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
      <title>{title}</title>
      {bars.map((b, i) => {
        const w = ((width - labelW - 60) * b.value) / max;
        const y = i * row + 4;
        return (
          <g key={b.label}>
            <text x={labelW - 8} y={y + 15} text-anchor="end" class="chart-label">{b.label.length > 22 ? `${b.label.slice(0, 21)}…` : b.label}</text>
            <rect x={labelW} y={y} width={Math.max(1, w)} height={row - 8} class="chart-bar" />
            <text x={labelW + w + 6} y={y + 15} class="chart-value">{fmt(b.value)}</text>
          </g>
        );
      })}
    </svg>
  );
}

/** Bucket counts of a histogram as columns (non-cumulative). */
export function HistogramChart({ buckets, title, width = 520 }: { buckets: Array<[number, number]>; title: string; width?: number }) {
  const counts = buckets.map(([le, cum], i) => ({ le, n: cum - (i > 0 ? buckets[i - 1]![1] : 0) }));
  const height = 160;
  const base = height - 28;
  const colW = counts.length ? (width - 20) / counts.length : 0;
  const max = Math.max(1, ...counts.map((c) => c.n));
  return (
    <svg class="chart" role="img" aria-label={title} width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
      <title>{title}</title>
      {counts.map((c, i) => {
        const h = ((base - 16) * c.n) / max;
        const x = 10 + i * colW;
        return (
          <g key={String(c.le)}>
            <rect x={x + 2} y={base - h} width={Math.max(1, colW - 4)} height={h} class="chart-bar" />
            <text x={x + colW / 2} y={base - h - 3} text-anchor="middle" class="chart-value">{c.n}</text>
            <text x={x + colW / 2} y={base + 14} text-anchor="middle" class="chart-label">{c.le === Number.POSITIVE_INFINITY ? '+∞' : `≤${fmt(c.le)}`}</text>
          </g>
        );
      })}
      <line x1="10" x2={width - 10} y1={base} y2={base} class="chart-axis" />
    </svg>
  );
}
