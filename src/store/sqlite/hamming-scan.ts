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
