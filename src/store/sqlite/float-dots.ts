import { align16, int8Module, newMemory, PAGE, wasm, type WasmMemory } from './int8-scan.js';

type F32DotsFn = (rows: number, dims: number, count: number, q: number, out: number) => void;

/**
 * The exact products of a query with some float rows, taken in WebAssembly with SIMD (wasm/int8.wat,
 * `f32dots`): the rows are copied side by side into its memory, then summed there as `dotAt` sums
 * in JS, to the same number. Worth it because the message search scores a few hundred neighbouring
 * turns per context build (measured, 500 of 1,200 rows of 512 floats: 0.135 ms against 0.29 ms for
 * the JS loop, the copy included), and a JS loop over typed arrays can run slower still in a server
 * process (once any ArrayBuffer has been detached, V8 checks every access: bench/machine-stalls.ts).
 * One per process and dimension count, grown to the largest call.
 */
export class FloatDots {
  private readonly memory: WasmMemory;
  private readonly f32dots: F32DotsFn;
  private rows = 0;

  private constructor(
    memory: WasmMemory,
    f32dots: F32DotsFn,
    private readonly dims: number,
  ) {
    this.memory = memory;
    this.f32dots = f32dots;
  }

  /** The kernel for rows of `dims` floats, or null where it cannot run (no SIMD, dims not a multiple of 4, no memory to be had). */
  static create(dims: number): FloatDots | null {
    if (dims % 4 !== 0 || dims <= 0) return null;
    const module = int8Module();
    const memory = module ? newMemory() : null;
    if (!module || !memory) return null;
    const instance = new wasm.Instance(module, { env: { memory } });
    return new FloatDots(memory, instance.exports['f32dots'] as F32DotsFn, dims);
  }

  /** `query` · `floats[offset .. offset + dims)` for each offset, in order. The result is a view valid until the next call. */
  dots(query: Float32Array, floats: Float32Array, offsets: readonly number[]): Float64Array {
    const count = offsets.length;
    this.reserve(count);
    const rowBytes = this.dims * 4;
    const rows = new Float32Array(this.memory.buffer, 0, count * this.dims);
    for (let i = 0; i < count; i++) rows.set(floats.subarray(offsets[i]!, offsets[i]! + this.dims), i * this.dims);
    const q = align16(count * rowBytes);
    const q64 = new Float64Array(this.memory.buffer, q, this.dims);
    for (let j = 0; j < this.dims; j++) q64[j] = query[j]!;
    const out = q + this.dims * 8;
    this.f32dots(0, this.dims, count, q, out);
    return new Float64Array(this.memory.buffer, out, count);
  }

  private reserve(count: number): void {
    if (count <= this.rows) return;
    const needed = align16(count * this.dims * 4) + this.dims * 8 + count * 8 + 16;
    const pages = Math.ceil(needed / PAGE) - this.memory.buffer.byteLength / PAGE;
    if (pages > 0) this.memory.grow(pages);
    this.rows = count;
  }
}

const byDims = new Map<number, FloatDots | null>();

/** The process's kernel for `dims`, made on first use; null where it cannot run. */
export function floatDots(dims: number): FloatDots | null {
  if (!byDims.has(dims)) byDims.set(dims, FloatDots.create(dims));
  return byDims.get(dims)!;
}
