/**
 * An Embedder that remembers vectors on disk between benchmark runs, keyed by the inner
 * embedder's id and the sha256 of each text. Embedding LoCoMo's 5,882 turns with the bundled
 * model takes minutes; with the cache a rerun takes seconds.
 *
 * File: <dir>/<embedder id>.vectors, a flat run of records [32-byte sha256][dimensions × float32].
 * New vectors are appended after each call, so an interrupted run keeps what it computed.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Embedder } from '../src/embedders/embedder.js';

export interface CachedEmbedderOptions {
  inner: Embedder;
  /** @default bench/.cache */
  dir?: string;
  /** Texts per call to the inner embedder (sorted by length first, so a batch holds similar sizes). @default 64 */
  batchSize?: number;
  /** Called after each inner batch with (done, total) for this call. */
  onProgress?: (done: number, total: number) => void;
}

export interface CachedEmbedder extends Embedder {
  /** Hits and misses since creation. */
  stats(): { hits: number; misses: number; stored: number };
}

const HASH_BYTES = 32;

export function defaultCacheDir(): string {
  return join(import.meta.dirname, '.cache');
}

export function createCachedEmbedder(options: CachedEmbedderOptions): CachedEmbedder {
  const { inner } = options;
  const dir = options.dir ?? defaultCacheDir();
  const batchSize = Math.max(1, options.batchSize ?? 64);
  const file = join(dir, `${inner.id.replace(/[^\w.@-]+/g, '_')}-${inner.dimensions}.vectors`);
  const recordBytes = HASH_BYTES + inner.dimensions * 4;
  const cache = new Map<string, Float32Array>();
  let hits = 0;
  let misses = 0;

  if (existsSync(file)) {
    const buf = readFileSync(file);
    // A torn last record (killed mid-write) is ignored.
    for (let off = 0; off + recordBytes <= buf.length; off += recordBytes) {
      const key = buf.subarray(off, off + HASH_BYTES).toString('hex');
      const bytes = buf.subarray(off + HASH_BYTES, off + recordBytes);
      cache.set(key, new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
    }
  }

  const keyOf = (text: string): string => createHash('sha256').update(text).digest('hex');

  async function embed(texts: readonly string[]): Promise<Float32Array[]> {
    const keys = texts.map(keyOf);
    const out: Array<Float32Array | undefined> = keys.map((k) => cache.get(k));
    // Distinct missing texts, sorted by length so each batch holds texts of similar size.
    const missing = [...new Map(keys.flatMap((k, i) => (out[i] ? [] : [[k, texts[i]!] as const]))).entries()].sort(
      (a, b) => a[1].length - b[1].length,
    );
    hits += texts.length - out.filter((v) => v === undefined).length;
    misses += missing.length;
    for (let start = 0; start < missing.length; start += batchSize) {
      const batch = missing.slice(start, start + batchSize);
      const vectors = await inner.embed(batch.map(([, t]) => t));
      const records: Buffer[] = [];
      batch.forEach(([k], j) => {
        const v = vectors[j]!;
        cache.set(k, v);
        records.push(Buffer.from(k, 'hex'), Buffer.from(v.buffer, v.byteOffset, v.byteLength));
      });
      mkdirSync(dir, { recursive: true });
      appendFileSync(file, Buffer.concat(records));
      options.onProgress?.(Math.min(start + batchSize, missing.length), missing.length);
    }
    // Copies: callers (and normalize()) may write into the arrays they get.
    return keys.map((k) => Float32Array.from(cache.get(k)!));
  }

  return {
    id: inner.id,
    dimensions: inner.dimensions,
    embed,
    stats: () => ({ hits, misses, stored: cache.size }),
  };
}
