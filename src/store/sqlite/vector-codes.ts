/**
 * Compact codes of one user's vectors, held in memory for the first stages of a two-stage search
 * (see vector-cache.ts): sign bits per dimension, one plane for positive and one for negative
 * components (128 bytes at 512 dimensions; for dense vectors this ranks exactly like Hamming
 * distance over sign bits, and sparse vectors such as the hash embedder's keep their zeros
 * apart), and an int8 code with its scale (512 bytes, a near-exact dot product). For a user of
 * `WASM_MIN_ROWS` or more, where WebAssembly SIMD runs and a memory can be had, the int8 rows live
 * in WebAssembly memory and every row's product is taken there (`nearestByInt8`); the sign planes
 * are then dropped and serve only the JS path. Slots are never moved: a
 * removed row becomes a tombstone, reused by nothing, so a rowid's slot is stable.
 */
import { dotAt } from '../../embedders/embedder.js';
import { floatDots } from './float-dots.js';
import { Int8Scan } from './int8-scan.js';

/**
 * Below this many rows a user's int8 rows stay in JS: a WebAssembly memory costs a 64 KB page and
 * address space (see int8-scan.ts), and a small user is scored from cached floats anyway. A
 * user who grows past it moves to WebAssembly.
 */
export const WASM_MIN_ROWS = 256;

export const REMOVED = 255;

/** Below this many rows `dotsOf` scores in JS: copying rows into WebAssembly memory costs more than it saves. */
const FLOAT_KERNEL_MIN_ROWS = 32;

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Sign planes of a vector, 32 dimensions to a word: words [0, W) positive, [W, 2W) negative. */
export function signBits(v: Float32Array, out: Uint32Array = new Uint32Array(2 * Math.ceil(v.length / 32)), offset = 0): Uint32Array {
  const W = Math.ceil(v.length / 32);
  out.fill(0, offset, offset + 2 * W);
  for (let j = 0; j < v.length; j++) {
    if (v[j]! > 0) out[offset + (j >>> 5)]! |= 1 << (j & 31);
    else if (v[j]! < 0) out[offset + W + (j >>> 5)]! |= 1 << (j & 31);
  }
  return out;
}

function hasZero(v: Float32Array): boolean {
  for (let j = 0; j < v.length; j++) if (v[j] === 0) return true;
  return false;
}

function grown(a: Float32Array, length: number): Float32Array {
  const b = new Float32Array(Math.max(length, a.length));
  b.set(a);
  return b;
}

export class UserCodes {
  readonly words: number;
  count = 0;
  private capacity: number;
  rowids: Float64Array;
  /** Index into `statusNames`, or REMOVED. */
  status: Uint8Array;
  bits: Uint32Array;
  int8: Int8Array;
  /** Multiply an int8 dot product by this to get the float one. */
  scale: Float32Array;
  readonly slotOf = new Map<number, number>();
  private readonly statusNames: string[] = [];
  /** Rows stored with a zero component (sparse vectors such as the hash embedder's); 0 allows the one-plane scan. */
  private sparseRows = 0;

  /** The int8 rows in WebAssembly memory, every row's product taken with SIMD; null for a small user, or where that cannot run (then the JS sign and int8 stages). */
  private simdInt8: Int8Scan | null = null;
  /**
   * The float vectors themselves while the user has at most `keepFloatsUpTo` rows, so the exact
   * stage reads memory instead of a vec0 point read per candidate (about 15 µs each); dropped for
   * good once the user outgrows it (a vector costs 4 bytes a dimension here).
   */
  private floats: Float32Array | null;

  constructor(
    readonly dimensions: number,
    capacity = 64,
    private readonly simd = true,
    private readonly keepFloatsUpTo = 0,
  ) {
    this.words = Math.ceil(dimensions / 32);
    this.capacity = Math.max(1, capacity);
    this.rowids = new Float64Array(this.capacity);
    this.status = new Uint8Array(this.capacity);
    this.int8 = new Int8Array(this.capacity * dimensions);
    this.bits = new Uint32Array(this.capacity * 2 * this.words);
    this.toWasm();
    this.scale = new Float32Array(this.capacity);
    this.floats = keepFloatsUpTo > 0 ? new Float32Array(Math.min(this.capacity, keepFloatsUpTo) * dimensions) : null;
  }

  /** Bytes held, for the cache's budget. */
  get bytes(): number {
    return this.capacity * (8 + 1 + 4) + (this.simdInt8?.byteLength ?? this.int8.byteLength) + this.bits.byteLength + this.slotOf.size * 40 + (this.floats?.byteLength ?? 0);
  }

  /**
   * Moves the int8 rows into WebAssembly memory once the user is large enough, where SIMD runs and
   * a memory can be had; the sign planes are dropped then (the int8 scan of every row replaces them).
   */
  private toWasm(): void {
    if (this.simdInt8 || !this.simd || this.capacity < WASM_MIN_ROWS) return;
    const scan = Int8Scan.create(this.dimensions);
    if (!scan) return;
    const rows = scan.reserve(this.capacity);
    rows.set(this.int8.subarray(0, this.count * this.dimensions));
    this.simdInt8 = scan;
    this.int8 = rows;
    this.bits = new Uint32Array(0);
  }

  statusCode(name: string): number {
    let i = this.statusNames.indexOf(name);
    if (i < 0) {
      i = this.statusNames.push(name) - 1;
    }
    return i;
  }

  set(rowid: number, status: string, v: Float32Array): void {
    let slot = this.slotOf.get(rowid);
    if (slot === undefined) {
      if (this.count === this.capacity) this.grow();
      slot = this.count++;
      this.slotOf.set(rowid, slot);
    }
    this.rowids[slot] = rowid;
    this.status[slot] = this.statusCode(status);
    if (!this.simdInt8) signBits(v, this.bits, slot * 2 * this.words);
    if (hasZero(v)) this.sparseRows++;
    let max = 0;
    for (let j = 0; j < v.length; j++) max = Math.max(max, Math.abs(v[j]!));
    const s = max > 0 ? 127 / max : 1;
    const base = slot * this.dimensions;
    for (let j = 0; j < v.length; j++) this.int8[base + j] = Math.round(v[j]! * s);
    this.scale[slot] = 1 / s;
    if (this.floats) {
      if (slot >= this.keepFloatsUpTo) this.floats = null;
      else {
        if (this.floats.length < (slot + 1) * this.dimensions) this.floats = grown(this.floats, Math.min(this.capacity, this.keepFloatsUpTo) * this.dimensions);
        this.floats.set(v, base);
      }
    }
  }

  /** Whether `nearest` takes every row's int8 product (WebAssembly SIMD), near-exact whatever the candidate count. */
  get scansEveryRow(): boolean {
    return this.simdInt8 !== null;
  }

  /** Whether the float vectors are kept (the user has not outgrown `keepFloatsUpTo`). */
  get keepsFloats(): boolean {
    return this.floats !== null;
  }

  /** The row's float vector as stored (a view: do not write to it), or undefined when floats are not kept or the row is not held. */
  floatOf(rowid: number): Float32Array | undefined {
    const slot = this.slotOf.get(rowid);
    if (!this.floats || slot === undefined || this.status[slot] === REMOVED) return undefined;
    return this.floats.subarray(slot * this.dimensions, (slot + 1) * this.dimensions);
  }

  /**
   * Every held row among the statuses scored exactly against the query with `similarity`, when the
   * floats are kept; undefined when they are not. For a user small enough that every row would be a
   * candidate anyway.
   */
  scoreAll(query: Float32Array, statuses: readonly string[], similarity: (q: Float32Array, v: Float32Array) => number): Array<{ rowid: number; score: number }> | undefined {
    const floats = this.floats;
    if (!floats || query.length !== this.dimensions) return undefined;
    const allowed = new Uint8Array(256);
    for (const s of statuses) {
      const i = this.statusNames.indexOf(s);
      if (i >= 0) allowed[i] = 1;
    }
    const D = this.dimensions;
    const out: Array<{ rowid: number; score: number }> = [];
    for (let slot = 0; slot < this.count; slot++) {
      if (allowed[this.status[slot]!] === 0) continue;
      out.push({ rowid: this.rowids[slot]!, score: similarity(query, floats.subarray(slot * D, (slot + 1) * D)) });
    }
    return out;
  }

  remove(rowid: number): void {
    const slot = this.slotOf.get(rowid);
    if (slot !== undefined) this.status[slot] = REMOVED;
  }

  /** The dot product of a row with the query: exact when floats are kept, else the int8 one (near it); undefined when the row is not held. */
  dotOf(rowid: number, query: Float32Array): number | undefined {
    const slot = this.slotOf.get(rowid);
    if (slot === undefined || this.status[slot] === REMOVED || query.length !== this.dimensions) return undefined;
    if (this.floats) return dotAt(query, this.floats, slot * this.dimensions, this.dimensions);
    return int8Dot(query, this.int8, slot * this.dimensions, this.dimensions) * this.scale[slot]!;
  }

  /**
   * `dotOf` for many rows at once: the products with the query of the held rows among `rowids`
   * (absent: not held, removed). From the kept floats through the WebAssembly kernel when there are
   * enough of them to be worth the copy (`FloatDots`), the same numbers as `dotOf`.
   */
  dotsOf(rowids: readonly number[], query: Float32Array): Map<number, number> {
    const out = new Map<number, number>();
    const kernel = this.floats && rowids.length >= FLOAT_KERNEL_MIN_ROWS && query.length === this.dimensions ? floatDots(this.dimensions) : null;
    if (!kernel || !this.floats) {
      for (const rowid of rowids) {
        const score = this.dotOf(rowid, query);
        if (score !== undefined) out.set(rowid, score);
      }
      return out;
    }
    const held: number[] = [];
    const offsets: number[] = [];
    for (const rowid of rowids) {
      const slot = this.slotOf.get(rowid);
      if (slot === undefined || this.status[slot] === REMOVED || out.has(rowid)) continue;
      held.push(rowid);
      offsets.push(slot * this.dimensions);
      out.set(rowid, 0);
    }
    const dots = kernel.dots(query, this.floats, offsets);
    for (let i = 0; i < held.length; i++) out.set(held[i]!, dots[i]!);
    return out;
  }

  private grow(): void {
    const cap = this.capacity * 2;
    const grow = <T extends Float64Array | Uint8Array | Uint32Array | Int8Array | Float32Array>(a: T, per: number, make: (n: number) => T): T => {
      const b = make(cap * per);
      b.set(a);
      return b;
    };
    this.rowids = grow(this.rowids, 1, (n) => new Float64Array(n));
    this.status = grow(this.status, 1, (n) => new Uint8Array(n));
    // WebAssembly memory grows in place (rows from offset 0 are kept); only the view is new.
    if (!this.simdInt8) this.bits = grow(this.bits, 2 * this.words, (n) => new Uint32Array(n));
    this.int8 = this.simdInt8 ? this.simdInt8.reserve(cap) : grow(this.int8, this.dimensions, (n) => new Int8Array(n));
    this.scale = grow(this.scale, 1, (n) => new Float32Array(n));
    this.capacity = cap;
    this.toWasm();
  }

  /**
   * Stage 1 and 2: the `candidates` nearest slots by sign agreement among the allowed statuses,
   * then those ranked by the int8 dot product; returns the best `keep` rowids, best first.
   */
  nearest(query: Float32Array, statuses: readonly string[], candidates: number, keep: number): number[] {
    const allowed = new Uint8Array(256);
    for (const s of statuses) {
      const i = this.statusNames.indexOf(s);
      if (i >= 0) allowed[i] = 1;
    }
    if (this.simdInt8) return this.nearestByInt8(query, allowed, keep);
    const q = signBits(query);
    // Dense rows and query: the negative plane is the positive one's complement, so the distance
    // is 2 × Hamming over the positive planes (one popcount a word).
    const dense = this.sparseRows === 0 && !hasZero(query);
    const W = this.words;
    const D = this.dimensions;
    const bits = this.bits;
    const status = this.status;
    const count = this.count;
    // Distance = D − (agreeing signs − disagreeing signs), on [0, 2D]; for dense vectors 2 × Hamming.
    // A row's planes are disjoint, so agreement is one popcount of (p & qp) | (n & qn), and
    // disagreement one of (p & qn) | (n & qp): two popcounts a word, not four.
    const D2 = 2 * D;
    const NONE = D2 + 1;
    const dist = new Uint16Array(count);
    const histogram = new Uint32Array(D2 + 2);
    let live = 0;
    for (let i = 0; i < count; i++) {
      if (allowed[status[i]!] === 0) {
        dist[i] = NONE;
        continue;
      }
      const o = i * 2 * W;
      if (dense) {
        let h = 0;
        for (let w = 0; w < W; w++) h += popcount(bits[o + w]! ^ q[w]!);
        dist[i] = 2 * h;
        histogram[2 * h]!++;
        live++;
        continue;
      }
      let agree = 0;
      let disagree = 0;
      for (let w = 0; w < W; w++) {
        const p = bits[o + w]!;
        const n = bits[o + W + w]!;
        const qp = q[w]!;
        const qn = q[W + w]!;
        agree += popcount((p & qp) | (n & qn));
        disagree += popcount((p & qn) | (n & qp));
      }
      const d = D - agree + disagree;
      dist[i] = d;
      histogram[d]!++;
      live++;
    }
    // The distance threshold that admits `candidates` slots (a counting sort, linear in the user's rows).
    const want = Math.min(candidates, live);
    let threshold = 0;
    let below = 0;
    while (threshold <= D2 && below + histogram[threshold]! < want) below += histogram[threshold++]!;
    let atThreshold = want - below;
    const chosen: number[] = [];
    for (let i = 0; i < count && chosen.length < want; i++) {
      const d = dist[i]!;
      if (d < threshold) chosen.push(i);
      else if (d === threshold && atThreshold > 0) {
        chosen.push(i);
        atThreshold--;
      }
    }
    const int8 = this.int8;
    const scale = this.scale;
    const scored = chosen.map((slot) => ({ slot, score: int8Dot(query, int8, slot * D, D) * scale[slot]! }));
    scored.sort((a, b) => b.score - a.score);
    return scored.slice(0, keep).map((x) => this.rowids[x.slot]!);
  }

  /**
   * With the int8 rows in WebAssembly: every row's int8 dot product with the query (SIMD, about
   * 0.5 ms for 10,000 rows of 512, 5 ms for 100,000), the best `keep` kept. Near-exact on any
   * distribution of vectors, where sign codes only narrow well for real embeddings (on random
   * vectors the sign stage kept 0.5 of the exact top 10 at 10,000 rows).
   */
  private nearestByInt8(query: Float32Array, allowed: Uint8Array, keep: number): number[] {
    const { sums } = this.simdInt8!.dotsAll(query, this.count);
    const scale = this.scale;
    const status = this.status;
    const slots = topSlots(this.count, keep, (slot) => sums[slot]! * scale[slot]!, (slot) => allowed[status[slot]!] === 1);
    return slots.map((slot) => this.rowids[slot]!);
  }
}

/**
 * The `keep` best of `count` scores among the allowed rows, best first, by a min-heap of `keep`
 * slots: most rows fail the comparison with the heap's least, so this is one pass and little else.
 */
function topSlots(count: number, keep: number, score: (slot: number) => number, allowed: (slot: number) => boolean): number[] {
  const heapScore = new Float64Array(keep);
  const heapSlot = new Int32Array(keep);
  let size = 0;
  const siftDown = (from: number): void => {
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && heapScore[l]! < heapScore[m]!) m = l;
      if (r < size && heapScore[r]! < heapScore[m]!) m = r;
      if (m === i) return;
      [heapScore[i], heapScore[m]] = [heapScore[m]!, heapScore[i]!];
      [heapSlot[i], heapSlot[m]] = [heapSlot[m]!, heapSlot[i]!];
      i = m;
    }
  };
  for (let slot = 0; slot < count; slot++) {
    if (!allowed(slot)) continue;
    const x = score(slot);
    if (size < keep) {
      let i = size++;
      heapScore[i] = x;
      heapSlot[i] = slot;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (heapScore[p]! <= heapScore[i]!) break;
        [heapScore[i], heapScore[p]] = [heapScore[p]!, heapScore[i]!];
        [heapSlot[i], heapSlot[p]] = [heapSlot[p]!, heapSlot[i]!];
        i = p;
      }
    } else if (x > heapScore[0]!) {
      heapScore[0] = x;
      heapSlot[0] = slot;
      siftDown(0);
    }
  }
  const order = Array.from({ length: size }, (_, i) => i).sort((a, b) => heapScore[b]! - heapScore[a]! || heapSlot[a]! - heapSlot[b]!);
  return order.map((i) => heapSlot[i]!);
}

/**
 * query · int8[offset, offset + D), four products at a time into four sums: the plain loop, one
 * dependent sum, ran at a quarter of the speed (3.3 against 0.9 ms for 1,200 rows of 512).
 */
function int8Dot(query: Float32Array, int8: Int8Array, offset: number, D: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let j = 0;
  for (; j + 3 < D; j += 4) {
    s0 += query[j]! * int8[offset + j]!;
    s1 += query[j + 1]! * int8[offset + j + 1]!;
    s2 += query[j + 2]! * int8[offset + j + 2]!;
    s3 += query[j + 3]! * int8[offset + j + 3]!;
  }
  for (; j < D; j++) s0 += query[j]! * int8[offset + j]!;
  return s0 + s1 + s2 + s3;
}
