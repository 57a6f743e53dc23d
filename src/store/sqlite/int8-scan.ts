import { WASM_BASE64 } from './wasm/int8.generated.js';

type Int8AllFn = (rows: number, dims: number, count: number, q: number, out: number) => void;

/**
 * The slice of the global WebAssembly API this module uses. Declared here because the package's
 * type libraries (ES2023 and Node's types, no DOM) do not describe it.
 */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
export interface WasmModule {
  readonly kind?: 'module';
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}
export const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: WasmModule | null | undefined;

/**
 * WebAssembly memories this module holds, and how many it may. V8 reserves address space (with
 * guard regions) for every memory: measured here, about 13,000 in one process, and past that each
 * new one is refused only after V8 has tried full garbage collections, which stalls the process
 * for seconds a call. Below the limit nothing of that kind happens; above it the caller keeps its
 * rows in JS (slower scans, the same results). A memory counts until it is garbage collected.
 */
let liveMemories = 0;
let memoryLimit = 4000;
const collected = new FinalizationRegistry<undefined>(() => {
  liveMemories--;
});

/** Sets how many WebAssembly memories the vector codes may hold at once; returns the previous limit. */
export function limitWasmMemories(max: number): number {
  const previous = memoryLimit;
  memoryLimit = max;
  return previous;
}

/** A new WebAssembly memory of one page, or null when the limit is reached or V8 refuses one. */
export function newMemory(): WasmMemory | null {
  if (liveMemories >= memoryLimit) return null;
  try {
    const memory = new wasm.Memory({ initial: 1 });
    liveMemories++;
    collected.register(memory, undefined);
    return memory;
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

/** The kernels' module, or null where WebAssembly SIMD is unavailable (then codes are scanned in JS). */
export function int8Module(): WasmModule | null {
  if (compiled === undefined) {
    const bytes = Buffer.from(WASM_BASE64, 'base64');
    compiled = wasm.validate(bytes) ? new wasm.Module(bytes) : null;
  }
  return compiled;
}

export const PAGE = 65_536;
export const align16 = (n: number): number => Math.ceil(n / 16) * 16;

/** The query's int16 scale: |q| ≤ 16,383 keeps the kernel's i32 sums exact up to 4,096 dimensions. */
const Q_MAX = 16_383;

/**
 * One user's int8 rows held in WebAssembly memory, and every row's dot product with a query taken
 * there with SIMD (wasm/int8.wat, `int8all`: about 0.55 ms for 10,000 rows of 512): the first stage
 * of the two-stage search. The memory holds, from offset 0, the rows (`dims` bytes each), then one
 * int16 query and a sum per row, so a scan never grows the memory and the rows' view stays valid
 * until the next `reserve`. The query is rounded to int16 (a relative error near 1e-4 of its
 * largest component), enough to rank rows; exact scores come after, from the floats.
 */
export class Int8Scan {
  private readonly memory: WasmMemory;
  private readonly int8all: Int8AllFn;
  private rows = 0;

  private constructor(
    module: WasmModule,
    memory: WasmMemory,
    private readonly dims: number,
  ) {
    this.memory = memory;
    const instance = new wasm.Instance(module, { env: { memory } });
    this.int8all = instance.exports['int8all'] as Int8AllFn;
  }

  /** A scanner for rows of `dims` int8 values, or null when the kernel cannot run here, `dims` is not a multiple of 16, or no memory can be had. */
  static create(dims: number): Int8Scan | null {
    if (dims % 16 !== 0 || dims > 4096) return null;
    const module = int8Module();
    const memory = module ? newMemory() : null;
    return module && memory ? new Int8Scan(module, memory, dims) : null;
  }

  /** Bytes of WebAssembly memory held (whole pages). */
  get byteLength(): number {
    return this.memory.buffer.byteLength;
  }

  /** Room for `rows` rows, the ones already written kept; returns the view to write them through. */
  reserve(rows: number): Int8Array {
    const needed = this.queryOffset(rows) + align16(2 * this.dims) + 4 * rows + 16;
    const pages = Math.ceil(needed / PAGE) - this.memory.buffer.byteLength / PAGE;
    if (pages > 0) this.memory.grow(pages);
    this.rows = rows;
    return new Int8Array(this.memory.buffer, 0, rows * this.dims);
  }

  /**
   * query · row for every row in [0, count), as integers: multiply by `unit` for the query's own
   * units (the rows' int8 scale not applied). The sums are a view valid until the next call or reserve.
   */
  dotsAll(query: Float32Array, count: number): { sums: Int32Array; unit: number } {
    if (count > this.rows) throw new RangeError(`dots of ${count} rows with room for ${this.rows}`);
    const q = this.queryOffset(this.rows);
    const out = q + align16(2 * this.dims);
    let max = 0;
    for (let j = 0; j < this.dims; j++) max = Math.max(max, Math.abs(query[j]!));
    const s = max > 0 ? Q_MAX / max : 1;
    const q16 = new Int16Array(this.memory.buffer, q, this.dims);
    for (let j = 0; j < this.dims; j++) q16[j] = Math.round(query[j]! * s);
    this.int8all(0, this.dims, count, q, out);
    return { sums: new Int32Array(this.memory.buffer, out, count), unit: 1 / s };
  }

  private queryOffset(rows: number): number {
    return align16(rows * this.dims);
  }
}
