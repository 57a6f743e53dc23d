/**
 * Turns the children's raw results into the figures people read: a summary (per 100 user
 * messages, medians and spreads over rounds, ratios to the floor measured in the same process),
 * a Markdown report and an SVG chart of search latency against memory count.
 */
import { CATEGORY_NAMES } from '../locomo-data.js';
import type { CallCounts } from './mock-llm-server.js';
import type { Timing } from './peer-common.js';

type System = 'engram' | 'mem0-v2' | 'mem0-v3';
export interface RawResults {
  ingest: Partial<Record<System, unknown>>;
  latency: Partial<Record<System, unknown>>;
  ranking: Partial<Record<System, unknown>>;
  failures: Record<string, string>;
}
interface ServerCounts {
  chat: CallCounts;
  embeddings: CallCounts;
  byKind: Record<string, CallCounts>;
}
interface IngestRaw {
  wallMs: number;
  appendMs?: number;
  tickMs?: number;
  userMessages: number;
  messages: number;
  memories: number;
  /** Engram only: per conversation, its extraction counters. */
  perConversation?: Array<{ extraction?: { added: number } }>;
  server: ServerCounts;
}
interface LatencyPoint {
  size: number;
  populateMs: number;
  search: Timing[];
  searchVectorOnly?: Timing[];
  embedQuery: Timing[];
  floor: Timing[];
  rssMb: number;
}
type Recall = { overall: Record<string, number>; byCategory: Record<string, Record<string, number>>; questions: number };

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const round = (x: number, d = 3): number => Math.round(x * 10 ** d) / 10 ** d;
/** Median over rounds, and the spread (min, max) of the rounds. */
const over = (ts: readonly Timing[], key: 'p50' | 'p95') => {
  const xs = ts.map((t) => t[key]);
  return { median: round(median(xs)), min: round(Math.min(...xs)), max: round(Math.max(...xs)) };
};

export function summarise(raw: RawResults) {
  const ingest = Object.fromEntries(
    Object.entries(raw.ingest).map(([system, r]) => {
      const x = r as IngestRaw;
      const per100 = (n: number): number => round((n * 100) / x.userMessages, 1);
      const modelMs = x.server.chat.serverMs;
      return [
        system,
        {
          userMessages: x.userMessages,
          messages: x.messages,
          chatCallsPer100: per100(x.server.chat.calls),
          inputTokensPer100: per100(x.server.chat.inputTokens),
          outputTokensPer100: per100(x.server.chat.outputTokens),
          embeddingCallsPer100: per100(x.server.embeddings.calls),
          embeddingTokensPer100: per100(x.server.embeddings.inputTokens),
          wallMsPerMessage: round(x.wallMs / x.messages, 2),
          wallMsPerMessageExclModel: round((x.wallMs - modelMs) / x.messages, 2),
          wallMsPerMessageExclModelAndEmbeddings: round((x.wallMs - modelMs - x.server.embeddings.serverMs) / x.messages, 2),
          memories: x.memories,
          // Engram's lifecycle forgets memories not recalled for months; mem0 deletes nothing here.
          memoriesAdded: x.perConversation?.every((c) => c.extraction) ? x.perConversation.reduce((n, c) => n + c.extraction!.added, 0) : x.memories,
          ...(x.appendMs !== undefined && x.tickMs !== undefined
            ? {
                appendMsPerMessage: round(x.appendMs / x.messages, 2),
                tickMsPerMessage: round(x.tickMs / x.messages, 2),
                restMsPerMessage: round((x.wallMs - modelMs - x.appendMs - x.tickMs) / x.messages, 2),
              }
            : {}),
          byPrompt: x.server.byKind,
        },
      ];
    }),
  );
  const latency = Object.fromEntries(
    Object.entries(raw.latency).map(([system, r]) => [
      system,
      (r as { points: LatencyPoint[] }).points.map((p) => {
        const floor = { p50: over(p.floor, 'p50'), p95: over(p.floor, 'p95') };
        // Ratios per round (same process, same moment), then their median.
        const ratio = (ts: readonly Timing[], key: 'p50' | 'p95') => round(median(ts.map((t, i) => t[key] / p.floor[i]![key])), 1);
        return {
          size: p.size,
          search: { p50: over(p.search, 'p50'), p95: over(p.search, 'p95') },
          ...(p.searchVectorOnly ? { searchVectorOnly: { p50: over(p.searchVectorOnly, 'p50'), p95: over(p.searchVectorOnly, 'p95') } } : {}),
          embedQuery: { p50: over(p.embedQuery, 'p50'), p95: over(p.embedQuery, 'p95') },
          floor,
          ratioToFloor: { p50: ratio(p.search, 'p50'), p95: ratio(p.search, 'p95') },
          rssMb: p.rssMb,
          populateMs: Math.round(p.populateMs),
        };
      }),
    ]),
  );
  const ranking = Object.fromEntries(
    Object.entries(raw.ranking).flatMap(([system, r]) =>
      Object.entries((r as { variants: Record<string, Recall> }).variants).map(([variant, v]) => [
        `${system} ${variant}`,
        {
          questions: v.questions,
          ...Object.fromEntries(Object.entries(v.overall).map(([k, x]) => [`R@${k}`, round(x * 100, 1)])),
          ...Object.fromEntries(Object.entries(v.byCategory ?? {}).map(([c, x]) => [`R@10 ${CATEGORY_NAMES[Number(c)] ?? c}`, round((x[10] ?? 0) * 100, 1)])),
        },
      ]),
    ),
  );
  return { ingest, latency, ranking, failures: raw.failures };
}
export type Summary = ReturnType<typeof summarise>;

const fmt = (x: number | undefined, d = 1): string => (x === undefined || Number.isNaN(x) ? '–' : x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }));
const spread = (s: { median: number; min: number; max: number }, d = 2): string => `${fmt(s.median, d)} (${fmt(s.min, d)}–${fmt(s.max, d)})`;

export function markdownReport(report: { date: string; mode: string; machine: Record<string, unknown>; versions: Record<string, string | null>; setup: { plan: unknown }; summary: Summary }): string {
  const { summary: s, machine: m } = report;
  const lines: string[] = [];
  lines.push(`# Engram vs mem0, side by side (${report.date.slice(0, 10)}, ${report.mode} run)`, '');
  lines.push(`Machine: ${String(m['cores'])} cores (${String(m['cpu'])}), ${String(m['memoryGb'])} GB, Node ${String(m['node'])}; shared with other jobs (load averages in the JSON).`);
  lines.push(`Versions: Engram ${report.versions['engram']}, mem0 ${report.versions['mem0-v2'] ?? 'not installed'} ("v2") and ${report.versions['mem0-v3'] ?? 'not installed'} ("v3").`);
  lines.push('Model server: local mock (deterministic, no delay, tokens counted with o200k_base); embeddings: one feature-hashing function, 512 dimensions, over HTTP for every system.', '');

  lines.push('## Ingest cost (LoCoMo replayed as chats)', '');
  lines.push('Per 100 user messages. Wall time per message (every turn) excludes the mock server\'s chat time (the model time); the last column also excludes its embedding time.', '');
  lines.push('| system | user msgs | chat calls | input tokens | output tokens | embedding calls | wall ms/msg excl. model | excl. model+embed | memories stored (added) |');
  lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [system, x] of Object.entries(s.ingest)) {
    const stored = x.memoriesAdded === x.memories ? String(x.memories) : `${x.memories} (${x.memoriesAdded})`;
    lines.push(`| ${system} | ${x.userMessages} | ${fmt(x.chatCallsPer100)} | ${fmt(x.inputTokensPer100, 0)} | ${fmt(x.outputTokensPer100, 0)} | ${fmt(x.embeddingCallsPer100)} | ${fmt(x.wallMsPerMessageExclModel, 2)} | ${fmt(x.wallMsPerMessageExclModelAndEmbeddings, 2)} | ${stored} |`);
  }
  const e = s.ingest['engram'];
  if (e && 'appendMsPerMessage' in e) {
    lines.push(
      '',
      `Engram's time per message (excl. model): appendMessages ${fmt(e.appendMsPerMessage, 2)} ms (stores, indexes and embeds the raw message), the scheduler pass after each message ${fmt(e.tickMsPerMessage, 2)} ms, ` +
        `and ${fmt(e.restMsPerMessage, 2)} ms for the passes when a session falls silent (extraction, episode summary, profile, lifecycle decay and forgetting). ` +
        'Stored counts active memories at the end; Engram\'s lifecycle soft-deleted memories not recalled for about three months of simulated time (added in brackets).',
    );
  }
  lines.push('', '## Search latency (one user, top 10, query embedded over the same HTTP path)', '');
  lines.push('Milliseconds: median over rounds of each round\'s p50/p95 (spread: min–max over rounds). Floor: brute-force dot-product scan over the same vectors in the same process. Ratio: search ÷ floor, per round, median.', '');
  lines.push('| system | memories | search p50 | search p95 | embed query p50 | floor p50 | floor p95 | p50 ÷ floor | p95 ÷ floor | RSS MB |');
  lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [system, points] of Object.entries(s.latency)) {
    for (const p of points) {
      lines.push(`| ${system} | ${p.size.toLocaleString('en-US')} | ${spread(p.search.p50)} | ${spread(p.search.p95)} | ${fmt(p.embedQuery.p50.median, 2)} | ${fmt(p.floor.p50.median, 3)} | ${fmt(p.floor.p95.median, 3)} | ${fmt(p.ratioToFloor.p50, 0)}× | ${fmt(p.ratioToFloor.p95, 0)}× | ${fmt(p.rssMb, 0)} |`);
      if ('searchVectorOnly' in p && p.searchVectorOnly) {
        lines.push(`| ${system} (vector only) | ${p.size.toLocaleString('en-US')} | ${spread(p.searchVectorOnly.p50)} | ${spread(p.searchVectorOnly.p95)} | | | | | | |`);
      }
    }
  }
  lines.push(
    '',
    'Engram\'s search is recall() with its default recipe (vector + BM25 keyword, fused, then relevance, recency and importance; it also records the access, a write per search); "vector only" is its vector recipe. ' +
      'mem0 2.4.6 reads every row of its SQLite table and computes cosine in JavaScript; mem0 3.3.1 does the same scan plus BM25 and an entity boost (it embeds entities found in the query: a second embedding call). ' +
      'The floor is a plain JavaScript loop, so it is memory-bound and noisy on a shared machine; read ratios within a row.',
  );
  lines.push('', '## Ranking on raw turns (LoCoMo turn-level recall, %)', '');
  lines.push('Every turn stored as it is, no extraction (mem0: infer: false), same embeddings unless marked "bundled".', '');
  lines.push('| system / variant | questions | R@5 | R@10 | R@25 | R@50 |', '| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const [name, r] of Object.entries(s.ranking) as Array<[string, Record<string, number>]>) {
    lines.push(`| ${name} | ${r['questions']} | ${fmt(r['R@5'])} | ${fmt(r['R@10'])} | ${fmt(r['R@25'])} | ${fmt(r['R@50'])} |`);
  }
  const categories = Object.values(CATEGORY_NAMES);
  lines.push('', 'R@10 per category:', '', `| system / variant | ${categories.join(' | ')} |`, `| --- |${categories.map(() => ' ---: |').join('')}`);
  for (const [name, r] of Object.entries(s.ranking) as Array<[string, Record<string, number>]>) {
    lines.push(`| ${name} | ${categories.map((c) => fmt(r[`R@10 ${c}`])).join(' | ')} |`);
  }
  lines.push(
    '',
    'memories-cosine: each turn added as a memory, ranked by cosine alone (the same ranking as mem0 2.4.6: a check that both see the same vectors). ' +
      'memories-vector / memories-hybrid: Engram\'s vector and default recipes over those memories. messages-default: the turns appended as messages and found with searchMessages (neighbour and session context). ' +
      '"bundled": the same with Engram\'s bundled embedder instead of the shared hash embedding, for reference. mem0 3.3.1 searched with threshold 0 (its default 0.1 cuts lists short of 50).',
  );
  if (Object.keys(s.failures).length > 0) {
    lines.push('', '## Failures', '');
    for (const [what, error] of Object.entries(s.failures)) lines.push(`- **${what}**: \`${error.split('\n')[0]}\``);
  }
  lines.push('', `Plan: \`${JSON.stringify(report.setup.plan)}\``, '');
  return lines.join('\n');
}

const COLOURS: Record<string, string> = { engram: '#1f77b4', 'mem0-v2': '#ff7f0e', 'mem0-v3': '#d62728', floor: '#555555' };

/** Search p50 (line) and p95 (dashed) against memory count, log-log, for each system and the floor. */
export function latencySvg(s: Summary): string {
  const series: Array<{ name: string; p50: Array<[number, number]>; p95: Array<[number, number]> }> = [];
  for (const [system, points] of Object.entries(s.latency)) {
    series.push({ name: system, p50: points.map((p) => [p.size, p.search.p50.median]), p95: points.map((p) => [p.size, p.search.p95.median]) });
  }
  const floorFrom = Object.values(s.latency)[0];
  if (floorFrom) series.push({ name: 'floor', p50: floorFrom.map((p) => [p.size, p.floor.p50.median]), p95: floorFrom.map((p) => [p.size, p.floor.p95.median]) });
  const all = series.flatMap((x) => [...x.p50, ...x.p95]);
  if (all.length === 0) return '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>\n';
  const [W, H, L, R, T, B] = [720, 440, 70, 130, 40, 50];
  const lx = (v: number) => Math.log10(Math.max(v, 1e-4));
  const xs = all.map((p) => lx(p[0])), ys = all.map((p) => lx(p[1]));
  const [x0, x1] = [Math.min(...xs) - 0.05, Math.max(...xs) + 0.05];
  const [y0, y1] = [Math.floor(Math.min(...ys)), Math.ceil(Math.max(...ys))];
  const px = (v: number) => L + ((lx(v) - x0) / (x1 - x0)) * (W - L - R);
  const py = (v: number) => H - B - ((lx(v) - y0) / (y1 - y0)) * (H - T - B);
  const out: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`];
  out.push(`<rect width="${W}" height="${H}" fill="white"/>`, `<text x="${L}" y="22" font-size="14">Search latency vs memories (one user, top 10; solid p50, dashed p95; log-log)</text>`);
  for (let e = y0; e <= y1; e++) {
    const y = py(10 ** e);
    out.push(`<line x1="${L}" x2="${W - R}" y1="${y}" y2="${y}" stroke="#ddd"/>`, `<text x="${L - 8}" y="${y + 4}" text-anchor="end">${10 ** e >= 1 ? 10 ** e : (10 ** e).toPrecision(1)} ms</text>`);
  }
  for (const size of [...new Set(all.map((p) => p[0]))]) {
    out.push(`<line x1="${px(size)}" x2="${px(size)}" y1="${T}" y2="${H - B}" stroke="#eee"/>`, `<text x="${px(size)}" y="${H - B + 18}" text-anchor="middle">${size.toLocaleString('en-US')}</text>`);
  }
  out.push(`<text x="${(L + W - R) / 2}" y="${H - 12}" text-anchor="middle">memories stored</text>`);
  series.forEach((x, i) => {
    const c = COLOURS[x.name] ?? '#000';
    const path = (pts: Array<[number, number]>) => pts.map(([a, b], j) => `${j ? 'L' : 'M'}${px(a).toFixed(1)},${py(b).toFixed(1)}`).join(' ');
    out.push(`<path d="${path(x.p50)}" fill="none" stroke="${c}" stroke-width="2"/>`, `<path d="${path(x.p95)}" fill="none" stroke="${c}" stroke-width="1.5" stroke-dasharray="5,4"/>`);
    for (const [a, b] of x.p50) out.push(`<circle cx="${px(a).toFixed(1)}" cy="${py(b).toFixed(1)}" r="3" fill="${c}"/>`);
    out.push(`<line x1="${W - R + 15}" x2="${W - R + 40}" y1="${T + 20 + i * 20}" y2="${T + 20 + i * 20}" stroke="${c}" stroke-width="2"/>`, `<text x="${W - R + 46}" y="${T + 24 + i * 20}">${x.name}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
