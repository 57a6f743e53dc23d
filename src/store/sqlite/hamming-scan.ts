import { WASM_BASE64 } from './wasm/hamming.generated.js';

type HammingFn = (bits: number, stride: number, count: number, q: number, vecs: number, out: number) => void;

/**
 * The slice of the global WebAssembly API this module uses. Declared here because the package's
 * type libraries (ES2023 and Node's types, no DOM) do not describe it.
 */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmModule {
  readonly kind?: 'module';
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: WasmModule | null | undefined;

/** The kernel's module, or null where WebAssembly SIMD is unavailable (then codes are scanned in JS). */
function hammingModule(): WasmModule | null {
  if (compiled === undefined) {
    const bytes = Buffer.from(WASM_BASE64, 'base64');
    compiled = wasm.validate(bytes) ? new wasm.Module(bytes) : null;
  }
  return compiled;
}

const PAGE = 65_536;
const align16 = (n: number): number => Math.ceil(n / 16) * 16;

/**
 * One user's sign-bit rows held in WebAssembly memory and scanned there with SIMD popcounts
 * (wasm/hamming.wat): about eight times the JS scan's speed. The memory holds, from offset 0, the
 * rows (`rowBytes` each), then room for one query and one u16 distance per row, so a scan never
 * grows the memory and the `bits` view stays valid until the next `reserve`.
 */
export class HammingScan {
  private readonly memory: WasmMemory;
  private readonly hamming: HammingFn;
  private rows = 0;

  private constructor(
    module: WasmModule,
    private readonly rowBytes: number,
  ) {
    this.memory = new wasm.Memory({ initial: 1 });
    const instance = new wasm.Instance(module, { env: { memory: this.memory } });
    this.hamming = instance.exports['hamming'] as HammingFn;
  }

  /** A scanner for rows of `rowBytes`, or null when the kernel cannot run here or the rows do not fit it. */
  static create(rowBytes: number, compareBytes: number): HammingScan | null {
    if (compareBytes % 16 !== 0 || compareBytes / 16 > 31 || rowBytes % 16 !== 0) return null;
    const module = hammingModule();
    return module ? new HammingScan(module, rowBytes) : null;
  }

  /** Room for `rows` rows, the ones already written kept; returns the view to write them through. */
  reserve(rows: number): Uint32Array {
    const needed = this.queryOffset(rows) + align16(this.rowBytes) + align16(2 * rows);
    const pages = Math.ceil(needed / PAGE) - this.memory.buffer.byteLength / PAGE;
    if (pages > 0) this.memory.grow(pages);
    this.rows = rows;
    return new Uint32Array(this.memory.buffer, 0, (rows * this.rowBytes) / 4);
  }

  /**
   * Popcount of (row ⊕ query) over each row's first `compareBytes`, for rows [0, count): a view
   * valid until the next scan or reserve.
   */
  scan(query: Uint32Array, compareBytes: number, count: number): Uint16Array {
    if (count > this.rows) throw new RangeError(`scan of ${count} rows with room for ${this.rows}`);
    const q = this.queryOffset(this.rows);
    const out = q + align16(this.rowBytes);
    new Uint32Array(this.memory.buffer, q, compareBytes / 4).set(query.subarray(0, compareBytes / 4));
    this.hamming(0, this.rowBytes, count, q, compareBytes / 16, out);
    return new Uint16Array(this.memory.buffer, out, count);
  }

  private queryOffset(rows: number): number {
    return align16(rows * this.rowBytes);
  }
}

type Int8DotsFn = (rows: number, dims: number, slots: number, n: number, q: number, out: number) => void;
type Int8AllFn = (rows: number, dims: number, count: number, q: number, out: number) => void;

/** The query's int16 scale: |q| ≤ 16,383 keeps the kernel's i32 sums exact up to 4,096 dimensions. */
const Q_MAX = 16_383;

/**
 * One user's int8 rows held in WebAssembly memory, with the dot products of chosen rows taken
 * there with SIMD (wasm/hamming.wat, `int8dots`): the second stage of the two-stage search. The
 * memory holds, from offset 0, the rows (`dims` bytes each), then one int16 query and room for a
 * slot and a sum per row, so a call never grows the memory and the rows' view stays valid until
 * the next `reserve`. The query is rounded to int16 (a relative error near 1e-4 of its largest
 * component), enough to rank candidates; exact scores come after, from the floats.
 */
export class Int8Scan {
  private readonly memory: WasmMemory;
  private readonly int8dots: Int8DotsFn;
  private readonly int8all: Int8AllFn;
  private rows = 0;

  private constructor(
    module: WasmModule,
    private readonly dims: number,
  ) {
    this.memory = new wasm.Memory({ initial: 1 });
    const instance = new wasm.Instance(module, { env: { memory: this.memory } });
    this.int8dots = instance.exports['int8dots'] as Int8DotsFn;
    this.int8all = instance.exports['int8all'] as Int8AllFn;
  }

  /** A scanner for rows of `dims` int8 values, or null when the kernel cannot run here or `dims` is not a multiple of 16. */
  static create(dims: number): Int8Scan | null {
    if (dims % 16 !== 0 || dims > 4096) return null;
    const module = hammingModule();
    return module ? new Int8Scan(module, dims) : null;
  }

  /** Room for `rows` rows, the ones already written kept; returns the view to write them through. */
  reserve(rows: number): Int8Array {
    const needed = this.queryOffset(rows) + align16(2 * this.dims) + 8 * rows + 16;
    const pages = Math.ceil(needed / PAGE) - this.memory.buffer.byteLength / PAGE;
    if (pages > 0) this.memory.grow(pages);
    this.rows = rows;
    return new Int8Array(this.memory.buffer, 0, rows * this.dims);
  }

  /**
   * query · row for each of the first `n` slots, in the query's own units (the rows' int8 scale not
   * applied): a view valid until the next call or reserve.
   */
  dots(query: Float32Array, slots: Int32Array, n: number): Float32Array {
    if (n > this.rows) throw new RangeError(`dots of ${n} rows with room for ${this.rows}`);
    const q = this.queryOffset(this.rows);
    const slotsAt = q + align16(2 * this.dims);
    const out = slotsAt + 4 * this.rows;
    const s = this.writeQuery(query, q);
    new Int32Array(this.memory.buffer, slotsAt, n).set(slots.subarray(0, n));
    this.int8dots(0, this.dims, slotsAt, n, q, out);
    const sums = new Int32Array(this.memory.buffer, out, n);
    const result = new Float32Array(n);
    for (let i = 0; i < n; i++) result[i] = sums[i]! / s;
    return result;
  }

  /**
   * query · row for every row in [0, count), as integers: multiply by `unit` for the query's own
   * units (the rows' int8 scale not applied). The sums are a view valid until the next call or reserve.
   */
  dotsAll(query: Float32Array, count: number): { sums: Int32Array; unit: number } {
    if (count > this.rows) throw new RangeError(`dots of ${count} rows with room for ${this.rows}`);
    const q = this.queryOffset(this.rows);
    const out = q + align16(2 * this.dims) + 4 * this.rows;
    const s = this.writeQuery(query, q);
    this.int8all(0, this.dims, count, q, out);
    return { sums: new Int32Array(this.memory.buffer, out, count), unit: 1 / s };
  }

  /** Writes the query rounded to int16 at `at`; returns its scale. */
  private writeQuery(query: Float32Array, at: number): number {
    let max = 0;
    for (let j = 0; j < this.dims; j++) max = Math.max(max, Math.abs(query[j]!));
    const s = max > 0 ? Q_MAX / max : 1;
    const q16 = new Int16Array(this.memory.buffer, at, this.dims);
    for (let j = 0; j < this.dims; j++) q16[j] = Math.round(query[j]! * s);
    return s;
  }

  private queryOffset(rows: number): number {
    return align16(rows * this.dims);
  }
}
