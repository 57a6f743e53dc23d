import type { Clock, IdGenerator } from '../deps.js';

export interface ManualClock extends Clock {
  set(date: Date | string): void;
  advance(ms: number): void;
  advanceDays(days: number): void;
}

/** A clock that only moves when told to: decay, silence windows and reminders tested without sleeping. */
export function fixedClock(start: Date | string = '2026-01-01T00:00:00Z'): ManualClock {
  let now = new Date(start).getTime();
  return {
    now: () => new Date(now),
    set: (d) => void (now = new Date(d).getTime()),
    advance: (ms) => void (now += ms),
    advanceDays: (days) => void (now += days * 86_400_000),
  };
}

/** Predictable ids: "<prefix>-1", "<prefix>-2", … */
export function sequentialIds(prefix = 'id'): IdGenerator {
  let n = 0;
  return { next: () => `${prefix}-${++n}` };
}
