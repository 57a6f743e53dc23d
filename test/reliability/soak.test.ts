import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileFixture, count, go, indexAgreement, inspect, spawnChild, tempDir } from './harness.js';

const PROCESSES = 4;
const SECONDS = Number(process.env.ENGRAM_SOAK_SECONDS ?? 10);

interface SoakReport {
  ops: number;
  errors: Record<string, number>;
  raw: string[];
  live: Record<string, { content: string; status: string }>;
  appended: string[];
}

describe('multi-process soak', () => {
  it(`${PROCESSES} processes × ${SECONDS} s of mixed operations on one file: no raw or busy errors, nothing lost or duplicated, indexes agree`, async () => {
    const dir = tempDir('soak');
    const file = path.join(dir, 'soak.db');
    const goFile = path.join(dir, 'go');
    const child = await compileFixture('soak-child.ts');
    const children = Array.from({ length: PROCESSES }, (_, i) => spawnChild(child, [file, goFile, String(i), String(SECONDS)]));
    await Promise.all(children.map((c) => c.ready));
    go(goFile);
    const results = await Promise.all(children.map((c) => c.done));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const reports = results.map((r) => JSON.parse(r.stdout) as SoakReport);

    const errors: Record<string, number> = {};
    for (const r of reports) for (const [k, v] of Object.entries(r.errors)) errors[k] = (errors[k] ?? 0) + v;
    const raw = reports.flatMap((r) => r.raw);
    const ops = reports.reduce((s, r) => s + r.ops, 0);
    console.log(`soak: processes=${PROCESSES} seconds=${SECONDS} operations=${ops} typedErrors=${JSON.stringify(errors)} rawErrors=${raw.length}`);
    expect(raw).toEqual([]);
    // Typed, but still failures a caller would see: with IMMEDIATE transactions and the busy timeout there are none.
    expect(Object.keys(errors).filter((k) => /STORE_BUSY|STORE_FAILED|MIGRATION_FAILED|EMBEDDER_MISMATCH/.test(k))).toEqual([]);

    const db = inspect(file);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const agreement = indexAgreement(db);
    console.log('soak: rows', JSON.stringify(agreement));
    expect(agreement.memoryFts).toBe(agreement.memories);
    expect(agreement.memoryVec).toBe(agreement.memories);
    expect(agreement.messageFts).toBe(agreement.messages);
    expect(agreement.messageVec).toBe(agreement.messages);

    // Every acknowledged write is there, exactly once, in its last acknowledged state.
    const appended = reports.flatMap((r) => r.appended);
    expect(count(db, "SELECT count(*) AS n FROM messages WHERE user_id = 'shared'")).toBe(appended.length);
    expect(new Set(appended).size).toBe(appended.length);
    for (const [i, r] of reports.entries()) {
      const rows = db.prepare('SELECT id, content, status FROM memories WHERE user_id = ?').all(`p${i}`) as Array<{ id: string; content: string; status: string }>;
      expect(Object.fromEntries(rows.map((m) => [m.id, { content: m.content, status: m.status }]))).toEqual(r.live);
    }
    // Sequence numbers in each shared session are gapless and unique.
    for (const s of ['s0', 's1']) {
      const seqs = (db.prepare("SELECT seq FROM messages WHERE user_id = 'shared' AND session_id = ? ORDER BY seq").all(s) as Array<{ seq: number }>).map((r) => r.seq);
      expect(seqs).toEqual(seqs.map((_, i) => i));
    }
    // Extraction exactly once: the committed batches of a session never overlap.
    const runs = db.prepare("SELECT session_id, from_seq, through_seq FROM extraction_runs WHERE outcome != 'failed' ORDER BY session_id, from_seq").all() as Array<{ session_id: string; from_seq: number; through_seq: number }>;
    for (let i = 1; i < runs.length; i++) {
      if (runs[i]!.session_id === runs[i - 1]!.session_id) expect(runs[i]!.from_seq).toBeGreaterThan(runs[i - 1]!.through_seq);
    }
    console.log(`soak: extraction batches committed=${runs.length}`);
    db.close();
  });
});
