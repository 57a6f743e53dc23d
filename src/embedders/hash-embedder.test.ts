import { describe, it, expect } from 'vitest';
import { dot } from './embedder.js';
import { createHashEmbedder } from './hash-embedder.js';

const norm = (v: Float32Array): number => Math.sqrt(dot(v, v));

describe('createHashEmbedder', () => {
  it('has a stable id and dimension', () => {
    expect(createHashEmbedder().id).toBe('hash@256');
    expect(createHashEmbedder({ dimensions: 64 }).dimensions).toBe(64);
    expect(() => createHashEmbedder({ dimensions: 0 })).toThrow(RangeError);
  });

  it('is deterministic and L2-normalised', async () => {
    const e = createHashEmbedder();
    const [a, b] = await e.embed(['User likes green tea', 'User likes green tea']);
    expect(a).toHaveLength(256);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(norm(a!)).toBeCloseTo(1, 5);
  });

  it('gives English texts sharing words a high cosine, across inflections', async () => {
    const [a, b, c] = await createHashEmbedder().embed([
      'The user is allergic to peanuts',
      'peanut allergy: the user is allergic',
      'Meeting with the design team on Friday',
    ]);
    expect(dot(a!, b!)).toBeGreaterThan(0.5);
    expect(dot(a!, b!)).toBeGreaterThan(dot(a!, c!) + 0.3);
  });

  it('gives Chinese texts sharing words a high cosine', async () => {
    const [a, b, c] = await createHashEmbedder().embed(['用户对花生过敏', '花生过敏的用户', '周五和设计团队开会']);
    expect(dot(a!, b!)).toBeGreaterThan(0.5);
    expect(dot(a!, b!)).toBeGreaterThan(dot(a!, c!) + 0.3);
  });

  it('returns the zero vector for empty text and keeps input order', async () => {
    const e = createHashEmbedder({ dimensions: 32 });
    const out = await e.embed(['', '猫', 'cat']);
    expect(out).toHaveLength(3);
    expect(norm(out[0]!)).toBe(0);
    const [cat] = await e.embed(['cat']);
    expect(Array.from(out[2]!)).toEqual(Array.from(cat!));
  });
});
