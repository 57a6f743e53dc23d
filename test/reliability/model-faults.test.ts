import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHashEmbedder } from '../../src/embedders/hash-embedder.js';
import { createMemory, type MemoryEngine } from '../../src/memory.js';
import { createOpenAICompatibleModel } from '../../src/models/openai-compatible.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { startFaultServer, type Fault, type FaultServer } from './fault-server.js';
import path from 'node:path';
import { tempDir } from './harness.js';

let server: FaultServer;
beforeAll(async () => void (server = await startFaultServer()));
afterAll(async () => server.close());

const good = JSON.stringify({
  operations: [
    { op: 'add', kind: 'preference', content: '用户喜欢猫' },
    { op: 'add', kind: 'fact', content: 'The user works at Acme' },
  ],
  reason: 'two facts',
});
const figures = { faults: 0, failedRuns: 0, applied: 0, rejectedOps: 0 };

function engine(file: string, o: { workerId?: string; leaseMs?: number; timeoutMs?: number } = {}): MemoryEngine {
  const model = createOpenAICompatibleModel({ baseURL: server.baseURL, model: 'fault-model', maxRetries: 1, timeoutMs: o.timeoutMs ?? 2_000, sleep: async () => undefined });
  return createMemory({
    store: openSqliteStore({ path: file }),
    embedder: createHashEmbedder({ dimensions: 32 }),
    model,
    workerId: o.workerId ?? 'fault-worker',
    extraction: { leaseMs: o.leaseMs ?? 60_000, renewEveryMs: Math.max(5, Math.floor((o.leaseMs ?? 60_000) / 4)) },
  });
}
async function say(e: MemoryEngine, sessionId: string): Promise<void> {
  await e.appendMessages({ messages: [
    { userId: 'u', sessionId, role: 'user', content: '我喜欢猫' },
    { userId: 'u', sessionId, role: 'user', content: 'I work at Acme' },
  ] });
}
async function contents(e: MemoryEngine): Promise<string[]> {
  return (await e.list({ userId: 'u' })).map((m) => m.content).sort();
}

const failing: Array<[string, Fault[]]> = [
  ['garbage text', [{ kind: 'answer', content: 'Sure! Here are the memories: {{{ not json' }, { kind: 'answer', content: '<html>oops</html>' }]],
  ['the wrong schema', [{ kind: 'answer', content: JSON.stringify({ memories: ['cat'] }) }, { kind: 'answer', content: JSON.stringify({ operations: [{ op: 'explode' }] }) }]],
  ['429 twice', [{ kind: 'status', status: 429 }, { kind: 'status', status: 429 }]],
  ['500 twice', [{ kind: 'status', status: 500 }, { kind: 'status', status: 500 }]],
  ['connection resets', [{ kind: 'reset' }, { kind: 'reset' }]],
  ['a hang past the timeout', [{ kind: 'hang' }, { kind: 'hang' }]],
  ['a huge answer (4 MB of text)', [{ kind: 'answer', content: 'x'.repeat(4_000_000) }, { kind: 'answer', content: '{"operations": [' + '{"op":"skip"},'.repeat(200_000) }]],
];

describe('a model fault server on loopback', () => {
  for (const [label, faults] of failing) {
    it(`${label}: the batch fails visibly (typed, in extractionRuns), nothing is lost, the retry applies it exactly once`, async () => {
      const file = path.join(tempDir('faults'), 'f.db');
      const e = engine(file, { timeoutMs: label.includes('hang') ? 300 : 5_000 });
      await say(e, 's');
      server.queue(...faults);
      figures.faults += faults.length;
      const failed = await e.extract('u', 's');
      expect(failed.status).toBe('failed');
      expect(['MODEL_FAILED', 'MODEL_TIMEOUT', 'MODEL_OUTPUT_INVALID']).toContain(failed.error!.code);
      const runs = await e.extractionRuns('u', 's');
      expect(runs.at(-1)).toMatchObject({ outcome: 'failed' });
      figures.failedRuns++;
      expect((await e.getSession('u', 's')).processedSeq).toBe(-1);
      expect(await contents(e)).toEqual([]);

      server.queue({ kind: 'answer', content: good });
      expect(await e.extract('u', 's')).toMatchObject({ status: 'applied', added: 2 });
      figures.applied++;
      expect(await e.extract('u', 's')).toMatchObject({ status: 'nothing' });
      expect(await contents(e)).toEqual(['The user works at Acme', '用户喜欢猫'].sort());
      expect((await e.workingWindow('u', 's')).length).toBe(2);
      await e.close();
    });
  }

  it('a 429 or a reset followed by an answer is retried inside one extraction and applied once', async () => {
    const e = engine(path.join(tempDir('faults'), 'r.db'));
    await say(e, 'a');
    server.queue({ kind: 'status', status: 429 }, { kind: 'answer', content: good });
    figures.faults++;
    expect(await e.extract('u', 'a')).toMatchObject({ status: 'applied', added: 2 });
    await say(e, 'b');
    server.queue({ kind: 'reset' }, { kind: 'answer', content: JSON.stringify({ operations: [{ op: 'add', kind: 'fact', content: '用户住在杭州' }], reason: 'r' }) });
    figures.faults++;
    expect(await e.extract('u', 'b')).toMatchObject({ status: 'applied', added: 1 });
    expect(await contents(e)).toEqual(['The user works at Acme', '用户住在杭州', '用户喜欢猫'].sort());
    await e.close();
  });

  it('invented aliases are rejected and recorded, never applied to another memory', async () => {
    const e = engine(path.join(tempDir('faults'), 'a.db'));
    await e.add({ userId: 'u', kind: 'fact', content: 'The user lives in Berlin' });
    await say(e, 's');
    server.queue({ kind: 'answer', content: JSON.stringify({ operations: [
      { op: 'update', target: '7', content: '用户住在巴黎' },
      { op: 'delete', target: 'mem-does-not-exist' },
      { op: 'add', kind: 'preference', content: '用户喜欢猫' },
    ], reason: 'aliases' }) });
    figures.faults++;
    const report = await e.extract('u', 's');
    expect(report).toMatchObject({ status: 'applied', added: 1, updated: 0, deleted: 0 });
    expect(report.rejected.map((r) => r.op).sort()).toEqual(['delete', 'update']);
    figures.rejectedOps += report.rejected.length;
    expect((await e.extractionRuns('u', 's')).at(-1)!.rejected).toHaveLength(2);
    expect(await contents(e)).toEqual(['The user lives in Berlin', '用户喜欢猫'].sort());
    await e.close();
  });

  it('an answer slower than the lease: the lease is renewed, a second worker is kept out, the batch is applied once', async () => {
    const file = path.join(tempDir('faults'), 'slow.db');
    const a = engine(file, { workerId: 'A', leaseMs: 1_000, timeoutMs: 20_000 });
    const b = engine(file, { workerId: 'B', leaseMs: 1_000 });
    await say(a, 's');
    server.queue({ kind: 'answer', content: good, delayMs: 5_000 });
    figures.faults++;
    const start = server.requests;
    const first = a.extract('u', 's');
    while (server.requests === start) await new Promise((r) => setTimeout(r, 10));
    const before = server.requests;
    await new Promise((r) => setTimeout(r, 2_500)); // 2.5 leases later, still inside the slow call
    const meanwhile = await b.extract('u', 's');
    expect(meanwhile.status).toBe('busy');
    expect(server.requests).toBe(before); // b never called the model
    expect(await first).toMatchObject({ status: 'applied', added: 2 });
    expect(await contents(a)).toEqual(['The user works at Acme', '用户喜欢猫'].sort());
    await a.close();
    await b.close();
    console.log(`model-faults: ${JSON.stringify({ ...figures, requests: server.requests })}`);
  });
});
