import { describe, expect, it } from 'vitest';
import { centroid } from './centroid.js';
import { createHashEmbedder } from './hash-embedder.js';

const length = (v: Float32Array): number => Math.hypot(...v);
const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('centroid', () => {
  it('is the unit mean: equally near each of two texts, nearer to them than to a third (zh, en)', async () => {
    const embedder = createHashEmbedder({ dimensions: 256 });
    for (const [a, b, far] of [
      ['我家的猫叫咪咪', '我每天都给猫喂鱼', '明天要去银行办卡'],
      ['My cat is called Mimi', 'I feed my cat fish every day', 'Tomorrow I go to the bank'],
    ]) {
      const [va, vb, vf] = await embedder.embed([a!, b!, far!]);
      const c = centroid([va!, vb!])!;
      expect(length(c)).toBeCloseTo(1, 5);
      expect(dot(c, va!)).toBeCloseTo(dot(c, vb!), 5);
      expect(dot(c, va!)).toBeGreaterThan(dot(c, vf!));
    }
  });

  it('is the vector itself for one', () => {
    const v = new Float32Array([0.6, 0.8]);
    expect([...centroid([v])!]).toEqual([...v]);
  });

  it('is null for nothing, mixed lengths, or vectors that cancel out', () => {
    expect(centroid([])).toBeNull();
    expect(centroid([new Float32Array([1, 0]), new Float32Array([1, 0, 0])])).toBeNull();
    expect(centroid([new Float32Array([1, 0]), new Float32Array([-1, 0])])).toBeNull();
  });
});
