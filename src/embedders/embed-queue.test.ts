import { describe, expect, it } from 'vitest';
import { createEmbedQueue } from './embed-queue.js';

/** A model that answers only when told, recording every chunk it was handed; each vector holds its text's length. */
function heldModel() {
  const chunks: string[][] = [];
  const answers: Array<{ resolve: (v: Float32Array[]) => void; reject: (e: unknown) => void }> = [];
  return {
    chunks,
    run: (texts: string[]) =>
      new Promise<Float32Array[]>((resolve, reject) => {
        chunks.push(texts);
        answers.push({ resolve: () => resolve(texts.map((t) => Float32Array.of(t.length))), reject });
      }),
    /** Answers the oldest chunk waiting, then lets the queue send the next. */
    async answer(): Promise<void> {
      answers.shift()!.resolve([]);
      await new Promise((r) => setImmediate(r));
    },
    async fail(error: unknown): Promise<void> {
      answers.shift()!.reject(error);
      await new Promise((r) => setImmediate(r));
    },
  };
}

const LONG_ZH = Array.from({ length: 10 }, (_, i) => `用户导入的第${i}条记忆：喜欢猫`);
const LONG_EN = Array.from({ length: 10 }, (_, i) => `Imported memory number ${i}: the user likes cats`);

describe('the embed queue', () => {
  it('embeds a long call in chunks and gives its vectors in order (zh/en)', async () => {
    const model = heldModel();
    // Each text "costs" 10 ms on this clock; chunks of 40 ms hold four.
    let t = 0;
    const queue = createEmbedQueue({ run: (texts) => ((t += 10 * texts.length), model.run(texts)), chunkMs: 40, now: () => t });
    const texts = [...LONG_ZH, ...LONG_EN];
    const done = queue.embed(texts);
    while (queue.pending > 0) await model.answer();
    const vectors = await done;
    expect(vectors.map((v) => v[0])).toEqual(texts.map((x) => x.length));
    expect(model.chunks.flat()).toEqual(texts);
    // The first chunk is sized on a guess (10 ms a text), the rest on what texts took.
    expect(model.chunks.map((c) => c.length)).toEqual([4, 4, 4, 4, 4]);
  });

  it('serves a short call right after the chunk in flight, not after the whole long call (zh/en)', async () => {
    const model = heldModel();
    const queue = createEmbedQueue({ run: model.run, chunkMs: 20, now: () => 0 });
    const finished: string[] = [];
    const long = queue.embed([...LONG_ZH, ...LONG_EN]).then(() => finished.push('import'));
    const zh = queue.embed(['我养了什么宠物？']).then(() => finished.push('query zh'));
    const en = queue.embed(['What pets do I have?']).then(() => finished.push('query en'));
    while (queue.pending > 0) await model.answer();
    await Promise.all([long, zh, en]);
    expect(finished).toEqual(['query zh', 'query en', 'import']);
    // The long call's first chunk was in flight already; the queries went next, in arrival order.
    expect(model.chunks.slice(1, 3)).toEqual([['我养了什么宠物？'], ['What pets do I have?']]);
  });

  it('lets a long call go first once it has waited maxWaitMs, however many short calls come', async () => {
    const model = heldModel();
    let t = 0;
    const queue = createEmbedQueue({ run: model.run, chunkMs: 20, maxWaitMs: 100, now: () => t });
    let longDone = false;
    const long = queue.embed(LONG_EN).then(() => (longDone = true));
    const served: string[] = [];
    // A short call arrives with every answer: without the limit the long call would never be served again.
    for (let i = 0; i < 500 && !longDone; i++) {
      void queue.embed([`short ${i}`]);
      t += 30;
      await model.answer();
      served.push(model.chunks.at(-1)!.some((x) => x.startsWith('Imported')) ? 'long' : 'short');
    }
    expect(longDone).toBe(true);
    await long;
    expect(served.filter((s) => s === 'long').length).toBeGreaterThan(1);
    while (queue.pending > 0) await model.answer();
  });

  it('fails only the call whose chunk failed; the others are served', async () => {
    const model = heldModel();
    const queue = createEmbedQueue({ run: model.run, chunkMs: 20, now: () => 0 });
    const failing = expect(queue.embed(LONG_ZH)).rejects.toThrow('model crashed');
    const other = queue.embed(LONG_EN);
    await model.fail(new Error('model crashed'));
    await failing;
    while (queue.pending > 0) await model.answer();
    expect(await other).toHaveLength(LONG_EN.length);
  });

  it('refuses an answer with the wrong number of vectors as EMBEDDING_FAILED', async () => {
    const queue = createEmbedQueue({ run: async () => [Float32Array.of(1)], now: () => 0 });
    await expect(queue.embed(['用户喜欢猫', 'the user likes cats'])).rejects.toMatchObject({ code: 'EMBEDDING_FAILED' });
  });

  it('failAll rejects the calls waiting and in flight, and serves the calls after it', async () => {
    const model = heldModel();
    const queue = createEmbedQueue({ run: model.run, now: () => 0 });
    const inFlight = queue.embed(['用户喜欢猫']);
    const waiting = queue.embed(['the user likes cats']);
    queue.failAll(new Error('closed'));
    await expect(inFlight).rejects.toThrow('closed');
    await expect(waiting).rejects.toThrow('closed');
    expect(queue.pending).toBe(0);
    // The answer to the chunk that was in flight goes nowhere; the next call is served.
    const later = queue.embed(['用户养了一只猫']);
    await model.answer();
    await model.answer();
    expect(await later).toHaveLength(1);
  });

  it('answers an empty call at once', async () => {
    const queue = createEmbedQueue({ run: () => Promise.reject(new Error('not called')) });
    expect(await queue.embed([])).toEqual([]);
  });
});
