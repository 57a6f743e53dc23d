import { describe, it, expect } from 'vitest';
import { EngramError } from '../errors.js';
import { createBundledEmbedder, type SentenceEncoder } from './bundled-embedder.js';
import { dot } from './embedder.js';

/** A scripted encoder: records each batch and answers a 512-d one-hot vector per text length. */
function scriptedEncoder(): SentenceEncoder & { batches: string[][] } {
  const batches: string[][] = [];
  return {
    batches,
    embed: async (texts) => {
      batches.push(texts);
      return texts.map((t) => Array.from({ length: 512 }, (_, i) => (i === t.length ? 2 : 0)));
    },
  };
}

const glossCat = (text: string): string => text.replace('猫', 'cat');

describe('createBundledEmbedder (scripted encoder)', () => {
  it('glosses Chinese, batches by length and returns vectors in input order', async () => {
    const encoder = scriptedEncoder();
    let loads = 0;
    const e = createBundledEmbedder({
      batchSize: 2,
      loadEncoder: async () => {
        loads++;
        return encoder;
      },
      loadGlosser: () => glossCat,
    });
    expect(e.id).toBe('use-lite-cedict@4');
    expect(e.supersedes).toEqual(['use-lite-cedict@1', 'use-lite-cedict@2', 'use-lite-cedict@3']);
    expect(e.dimensions).toBe(512);
    const texts = ['a long english text', '猫', 'mid text', ''];
    const out = await e.embed(texts);
    await e.embed(['again']);
    expect(loads).toBe(1);
    expect(encoder.batches[0]).toEqual(['cat', 'mid text']);
    expect(encoder.batches[1]).toEqual(['a long english text']);
    expect(out.map((v) => v.indexOf(1))).toEqual([19, 3, 8, -1]);
    expect(dot(out[3]!, out[3]!)).toBe(0);
  });

  it('warm loads the encoder and glosser once and runs one text through the model; later embeds reuse them', async () => {
    const encoder = scriptedEncoder();
    let loads = 0;
    const e = createBundledEmbedder({
      loadEncoder: async () => {
        loads++;
        return encoder;
      },
      loadGlosser: () => glossCat,
    });
    await e.warm!();
    expect(loads).toBe(1);
    expect(encoder.batches).toEqual([['warm up']]);
    await e.embed(['我喜欢猫', 'I like cats']);
    expect(loads).toBe(1);
  });

  it('reports load and encoder failures as EMBEDDING_FAILED, and retries loading', async () => {
    let attempts = 0;
    const e = createBundledEmbedder({
      loadEncoder: async () => {
        attempts++;
        if (attempts === 1) throw new Error('missing package');
        return { embed: async () => Promise.reject(new Error('kernel crashed')) };
      },
      loadGlosser: () => (t) => t,
    });
    const first = await e.embed(['x']).catch((err: unknown) => err);
    expect(EngramError.hasCode(first, 'EMBEDDING_FAILED')).toBe(true);
    const second = await e.embed(['我']).catch((err: unknown) => err);
    expect(EngramError.hasCode(second, 'EMBEDDING_FAILED')).toBe(true);
    expect((second as EngramError).message).toContain('failed to embed');
    expect(attempts).toBe(2);
  });
});

describe('createBundledEmbedder (real USE-lite + CC-CEDICT)', () => {
  const e = createBundledEmbedder();
  const sim = async (a: string, b: string): Promise<number> => {
    const [va, vb] = await e.embed([a, b]);
    return dot(va!, vb!);
  };

  it('loads offline and returns 512-d unit vectors', { timeout: 120_000 }, async () => {
    const [v] = await e.embed(['我喜欢猫']);
    expect(v).toHaveLength(512);
    expect(dot(v!, v!)).toBeCloseTo(1, 4);
  });

  it('scores related English pairs above unrelated ones', { timeout: 120_000 }, async () => {
    expect(await sim('I love cats', 'My cat is adorable')).toBeGreaterThan(await sim('I love cats', 'The stock market fell today'));
    expect(await sim('I am allergic to peanuts', 'He cannot eat nuts')).toBeGreaterThan(
      await sim('I am allergic to peanuts', 'The meeting is at 3pm tomorrow'),
    );
  });

  it('scores related Chinese pairs above unrelated ones', { timeout: 120_000 }, async () => {
    expect(await sim('我喜欢猫', '我的猫很可爱')).toBeGreaterThan(await sim('我喜欢猫', '今天股市下跌了'));
    expect(await sim('明天下午三点开会', '会议安排在明天下午')).toBeGreaterThan(await sim('我对花生过敏', '明天下午三点开会'));
  });

  it('brings Chinese and English about the same thing together', { timeout: 120_000 }, async () => {
    const cross = await sim('我喜欢猫', 'I love cats');
    expect(cross).toBeGreaterThan(await sim('我喜欢猫', 'The stock market fell today'));
    expect(cross).toBeGreaterThan(0.5);
  });

  it('embeds a batch in input order, the same as one at a time', { timeout: 120_000 }, async () => {
    const texts = ['用户对花生过敏', 'hi', 'The user is allergic to peanuts and tree nuts'];
    const batch = await e.embed(texts);
    for (const [i, text] of texts.entries()) {
      const [single] = await e.embed([text]);
      expect(dot(batch[i]!, single!)).toBeCloseTo(1, 3);
    }
  });
});

describe('a long text has a bounded cost (text-pieces.ts)', () => {
  /** An encoder that records what it is given and answers a fixed direction per piece's first letter. */
  function recordingEncoder(): SentenceEncoder & { inputs: string[] } {
    const inputs: string[] = [];
    return {
      inputs,
      embed: async (texts) => {
        inputs.push(...texts);
        return texts.map((t) => Array.from({ length: 512 }, (_, i) => (i === t.charCodeAt(0) % 512 ? 1 : 0)));
      },
    };
  }

  it.each([
    ['zh', '我喜欢猫。'.repeat(40_000)],
    ['en', 'I like cats. '.repeat(16_000)],
  ])('%s: a 200,000-character text reaches the encoder as at most four pieces of at most 1,200 characters', async (_lang, text) => {
    const encoder = recordingEncoder();
    const e = createBundledEmbedder({ loadEncoder: async () => encoder, loadGlosser: () => (t: string) => t });
    const [v] = await e.embed([text]);
    expect(encoder.inputs.length).toBeLessThanOrEqual(4);
    expect(Math.max(...encoder.inputs.map((t) => t.length))).toBeLessThanOrEqual(1_200);
    expect(dot(v!, v!)).toBeCloseTo(1, 5);
  });

  it('a text within one piece is encoded whole, its vector as before; a longer one is the mean of its pieces, unit length', async () => {
    const encoder = recordingEncoder();
    const e = createBundledEmbedder({ loadEncoder: async () => encoder, loadGlosser: () => (t: string) => t });
    const short = 'I like cats';
    const long = `${'a'.repeat(1_000)} ${'b'.repeat(1_000)}`;
    const [s, l] = await e.embed([short, long]);
    expect(encoder.inputs).toContain(short);
    expect(s![short.charCodeAt(0) % 512]).toBe(1);
    // Two pieces, "aaa…" and "bbb…": half of each direction, made unit length.
    expect(l!['a'.charCodeAt(0)]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(l!['b'.charCodeAt(0)]).toBeCloseTo(Math.SQRT1_2, 6);
  });
});
