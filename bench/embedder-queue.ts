/**
 * A chat's query embedding while an import is being embedded (`npm run bench -- --only embedder`):
 * the bundled model in its worker thread, as `npm start` runs it, embeds an import of 400 texts
 * (Chinese and English); meanwhile a query arrives every 150–250 ms. Reported: how long each query
 * waited for its vector, and how long the import took, against the import alone and the query
 * alone. Run with chunks of several sizes (`chunkMs`) and as one batch (the embedder before the
 * queue: every call in arrival order).
 */
import { createThreadedEmbedder } from '../src/embedders/embedder-thread.js';
import { quantile, table } from './report.js';

interface Row {
  setting: string;
  importMs: number;
  queryP50: number;
  queryMax: number;
  queries: number;
}

const IMPORT = Array.from({ length: 400 }, (_, i) =>
  i % 2 ? `用户导入的第${i}条记忆：周末和妹妹去湖边徒步，拍了很多鸟的照片` : `Imported memory ${i}: the user went hiking by the lake with their sister and took photos of birds`,
);
const QUERIES = ['我养了什么宠物？', 'What pets do I have?'];

async function measure(setting: string, chunkMs: number): Promise<Row> {
  const embedder = createThreadedEmbedder({ kind: 'bundled' }, { chunkMs });
  try {
    await embedder.warm!();
    await embedder.embed(IMPORT.slice(0, 32));
    const started = performance.now();
    let importMs = 0;
    const importing = embedder.embed(IMPORT).then(() => (importMs = performance.now() - started));
    const waits: number[] = [];
    for (let i = 0; importMs === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 150 + ((i * 37) % 100)));
      if (importMs !== 0) break;
      const asked = performance.now();
      await embedder.embed([QUERIES[i % 2]!]);
      waits.push(performance.now() - asked);
    }
    await importing;
    return { setting, importMs, queryP50: quantile(waits, 0.5), queryMax: Math.max(...waits), queries: waits.length };
  } finally {
    await embedder.close();
  }
}

async function alone(): Promise<{ importMs: number; queryMs: number }> {
  const embedder = createThreadedEmbedder({ kind: 'bundled' }, { chunkMs: Infinity });
  try {
    await embedder.warm!();
    await embedder.embed(IMPORT.slice(0, 32));
    let t = performance.now();
    await embedder.embed(IMPORT);
    const importMs = performance.now() - t;
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      t = performance.now();
      await embedder.embed([QUERIES[i % 2]!]);
      times.push(performance.now() - t);
    }
    return { importMs, queryMs: quantile(times, 0.5) };
  } finally {
    await embedder.close();
  }
}

export async function runEmbedderQueue(): Promise<{ result: { alone: { importMs: number; queryMs: number }; rows: Row[] }; text: string }> {
  const base = await alone();
  const rows: Row[] = [];
  // chunkMs Infinity: chunks of the largest size (32), the model's own batch.
  for (const [setting, chunkMs] of [['chunks of about 50 ms (the default)', 50], ['chunks of about 25 ms', 25], ['chunks of about 100 ms', 100], ['chunks of 32 texts', Infinity]] as const) rows.push(await measure(setting, chunkMs));
  const r0 = (x: number): string => String(Math.round(x));
  const text = [
    `The bundled embedder in its worker thread: an import of ${IMPORT.length} texts (zh/en) alone took ${r0(base.importMs)} ms in one batch; a query alone ${base.queryMs.toFixed(1)} ms p50. With a query every 150–250 ms during the import:`,
    '',
    table(['setting', 'import ms', 'query wait p50 ms', 'query wait max ms', 'queries'], rows.map((r) => [r.setting, r0(r.importMs), r0(r.queryP50), r0(r.queryMax), String(r.queries)])),
    '',
    `Before the queue every call was embedded in arrival order: a query waited for the whole import (up to ${r0(base.importMs)} ms).`,
  ].join('\n');
  return { result: { alone: base, rows }, text };
}
