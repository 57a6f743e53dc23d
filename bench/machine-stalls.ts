import { execFileSync } from 'node:child_process';

/**
 * How often the machine takes the CPU away from a thread that never yields: the floor under any
 * tail latency measured on it. A thread spins on `performance.now()` for `ms` milliseconds of an
 * otherwise idle machine and counts the gaps between two readings longer than `thresholdMs`.
 * On the 2-core VM of sessions 9–20 a spinning thread lost the CPU for about 1.2 ms every 512 ms
 * and for 2–11 ms a few times a second besides (session 20): a proxied request's 7–8 ms path
 * meets one of those about one time in twenty, which is where its p95 is read.
 */
export interface MachineStalls {
  /** Milliseconds spun. */
  ms: number;
  thresholdMs: number;
  /** Gaps longer than the threshold. */
  count: number;
  /** Their total, ms. */
  totalMs: number;
  /** The longest, ms. */
  maxMs: number;
  /**
   * Milliseconds a fixed piece of arithmetic takes on it (the median of 25 runs; a million
   * multiply-adds over typed arrays, about 1.3 ms on the 2-core VM of session 27): how fast
   * the machine is at the time, which no stall count shows. The same code read a build of 4.2 ms
   * and of 4.8 ms an hour apart, as the host's other tenants came and went.
   */
  workMs: number;
}

/**
 * The fixed piece of arithmetic `workMs` times, run in a fresh Node process. In the bench's own
 * process the same loop read 1.8–2.9× slower: once any ArrayBuffer has been detached in a process
 * (importing `node:crypto` does it, as `@hono/node-server` does; a transfer does it), V8's
 * optimised code checks every typed-array access for it, for good. Timed there it would measure
 * that, not the machine. (Every server process is in that state: its JS loops over typed arrays,
 * the float dot products of the message search among them, run about 1.6× slower than in a fresh one.)
 */
const FIXED_WORK = `
const a = Float64Array.from({ length: 65536 }, (_, i) => Math.sin(i));
const b = Float64Array.from({ length: 65536 }, (_, i) => Math.cos(i));
function work() { let sum = 0; for (let pass = 0; pass < 16; pass++) for (let i = 0; i < a.length; i++) sum += a[i] * b[i] + pass; return sum; }
const times = []; let sink = 0;
for (let run = 0; run < 30; run++) { const t = performance.now(); sink += work(); if (run >= 5) times.push(performance.now() - t); }
times.sort((x, y) => x - y);
process.stdout.write(JSON.stringify({ ms: times[Math.floor(times.length / 2)], sink }));
`;

function measureWork(): number {
  const out = execFileSync(process.execPath, ['-e', FIXED_WORK], { encoding: 'utf8' });
  return (JSON.parse(out) as { ms: number }).ms;
}

export function measureMachineStalls(ms = 3_000, thresholdMs = 1): MachineStalls {
  const end = performance.now() + ms;
  const gaps: number[] = [];
  let last = performance.now();
  for (;;) {
    const now = performance.now();
    if (now - last > thresholdMs) gaps.push(now - last);
    last = now;
    if (now >= end) break;
  }
  const r2 = (x: number): number => Math.round(x * 100) / 100;
  return { ms, thresholdMs, count: gaps.length, totalMs: r2(gaps.reduce((a, b) => a + b, 0)), maxMs: r2(Math.max(0, ...gaps)), workMs: r2(measureWork()) };
}

export function formatMachineStalls(s: MachineStalls): string {
  return `the machine's own stalls: a thread spinning ${s.ms / 1000} s on it idle lost the CPU ${s.count} times for over ${s.thresholdMs} ms (${s.totalMs} ms in all, the longest ${s.maxMs} ms); a fixed piece of arithmetic took ${s.workMs} ms`;
}
