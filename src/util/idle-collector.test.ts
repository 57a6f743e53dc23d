import { describe, expect, it } from 'vitest';
import { createIdleCollector, v8MinorGc, v8YoungSpace } from './idle-collector.js';

/** A collector over a young space the test sets, with checks run when the test says. */
function scripted(fill?: number) {
  const space = { used: 0, size: 16 };
  const queued: Array<() => void> = [];
  let collections = 0;
  const collector = createIdleCollector({
    ...(fill === undefined ? {} : { fill }),
    youngSpace: () => space,
    collect: () => {
      collections++;
      space.used = 0;
    },
    schedule: (check) => queued.push(check),
  });
  const runChecks = (): number => {
    for (const check of queued.splice(0)) check();
    return collections;
  };
  return { collector, space, runChecks };
}

describe('idle collector', () => {
  it('collects on the next turn once no work is in flight and the young space is full enough', () => {
    const { collector, space, runChecks } = scripted();
    const end = collector.begin();
    space.used = 8;
    expect(runChecks()).toBe(0);
    end();
    expect(runChecks()).toBe(1);
    expect(space.used).toBe(0);
  });

  it('waits while other work is in flight, and checks again when it is over', () => {
    const { collector, space, runChecks } = scripted();
    const first = collector.begin();
    const second = collector.begin();
    space.used = 12;
    first();
    expect(runChecks()).toBe(0);
    second();
    expect(runChecks()).toBe(1);
  });

  it('does not collect when work starts again before the check runs', () => {
    const { collector, space, runChecks } = scripted();
    space.used = 12;
    collector.begin()();
    const next = collector.begin();
    expect(runChecks()).toBe(0);
    next();
    expect(runChecks()).toBe(1);
  });

  it('leaves a young space below the fill alone', () => {
    const { collector, space, runChecks } = scripted(0.5);
    space.used = 7;
    collector.begin()();
    expect(runChecks()).toBe(0);
    space.used = 8;
    collector.begin()();
    expect(runChecks()).toBe(1);
  });

  it('counts an end called twice once', () => {
    const { collector, space, runChecks } = scripted();
    space.used = 12;
    const first = collector.begin();
    const second = collector.begin();
    first();
    first();
    expect(runChecks()).toBe(0);
    second();
    expect(runChecks()).toBe(1);
  });

  it("runs a real minor GC that empties V8's young space, without a global gc", () => {
    // Emptied first, then garbage until the young space holds at least 1 MB of it (a scavenge V8 runs meanwhile just restarts the count).
    v8MinorGc();
    let garbage = 0;
    for (let i = 0; v8YoungSpace().used < 1_000_000; i++) garbage += [`用户喜欢猫 the user likes cats ${i}`, { i }].length;
    const before = v8YoungSpace().used;
    v8MinorGc();
    expect(garbage).toBeGreaterThan(0);
    expect(v8YoungSpace().used).toBeLessThan(before / 2);
    expect('gc' in globalThis).toBe(false);
  });
});
