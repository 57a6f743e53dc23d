import { indexTerms } from '../text/segment.js';
import { normalize, type Embedder } from './embedder.js';

export interface HashEmbedderOptions {
  /**
   * Vector length.
   * @default 256
   */
  dimensions?: number;
}

/** FNV-1a over UTF-16 code units: tiny, stable across runs and platforms. */
function fnv1a(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * A deterministic embedder for tests: each index term (Chinese words, stemmed English words; see
 * `indexTerms`) is hashed to a bucket with a hashed sign, so texts that share words get a high
 * cosine and unrelated texts about zero. No model, no I/O, identical output on every machine.
 * It knows nothing of meaning: "cat" and "猫" do not meet.
 */
export function createHashEmbedder(options: HashEmbedderOptions = {}): Embedder {
  const dimensions = options.dimensions ?? 256;
  if (!Number.isInteger(dimensions) || dimensions < 1) {
    throw new RangeError(`Hash embedder dimensions must be a positive integer, got ${dimensions}`);
  }

  function embedOne(text: string): Float32Array {
    const vector = new Float32Array(dimensions);
    for (const term of indexTerms(text)) {
      const bucket = fnv1a(term, 0) % dimensions;
      const sign = fnv1a(term, 0x9e3779b9) & 1 ? 1 : -1;
      vector[bucket] = vector[bucket]! + sign;
    }
    return normalize(vector);
  }

  return {
    id: `hash@${dimensions}`,
    dimensions,
    embed: async (texts) => texts.map(embedOne),
  };
}
