/**
 * The requests a process has in flight, and the housekeeping that waits for a moment with none.
 * A server thread that answers chat requests also collects garbage and writes delayed access
 * records; done in the middle of a request, that work is the request's latency (a scavenge of
 * 3 ms, a 100-row write of 3–17 ms: bench/results/2026-11-26-s11-proxy.md). Done between
 * requests, it delays nobody.
 *
 * Work is counted by `begin()`, whose returned `end` may be called more than once. Once the count
 * falls to zero, the idle moment comes on the next turn of the event loop, if the count is still
 * zero then: `onIdle` runs, and then one waiting task; the next waiting task waits for the next
 * idle turn, so a request arriving meanwhile waits for one task at most.
 */
export interface Activity {
  begin(): () => void;
  /**
   * Runs `task` in an idle moment, or after `maxWaitMs` whatever is in flight, so that work
   * which must happen (writing what is held in memory) is not put off forever by a server
   * that is never idle. @default maxWaitMs Infinity
   */
  whenIdle(task: () => void, maxWaitMs?: number): void;
}

export interface ActivityOptions {
  /** Runs in each idle moment, before a waiting task (the idle collector: `idleCollection()`). */
  onIdle?: () => void;
  /** Runs a check on a later turn of the event loop. @default setImmediate */
  schedule?: (check: () => void) => void;
  /** Runs a deadline. @default setTimeout, unref'd (a deadline keeps no process alive) */
  timer?: (fire: () => void, ms: number) => { cancel(): void };
}

interface Waiting {
  run: () => void;
  deadline?: { cancel(): void };
}

const unrefTimer = (fire: () => void, ms: number): { cancel(): void } => {
  const t = setTimeout(fire, ms);
  t.unref();
  return { cancel: () => clearTimeout(t) };
};

export function createActivity(options: ActivityOptions = {}): Activity {
  const schedule = options.schedule ?? ((check: () => void) => void setImmediate(check));
  const timer = options.timer ?? unrefTimer;
  let active = 0;
  let checking = false;
  const waiting: Waiting[] = [];

  const runTask = (w: Waiting): void => {
    w.deadline?.cancel();
    w.run();
  };
  const check = (): void => {
    checking = false;
    if (active > 0) return;
    options.onIdle?.();
    const next = waiting.shift();
    if (!next) return;
    runTask(next);
    if (waiting.length > 0) later();
  };
  const later = (): void => {
    if (checking) return;
    checking = true;
    schedule(check);
  };

  return {
    begin() {
      active++;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        if (--active === 0) later();
      };
    },
    whenIdle(task, maxWaitMs = Infinity) {
      const w: Waiting = { run: task };
      if (Number.isFinite(maxWaitMs)) {
        w.deadline = timer(() => {
          const at = waiting.indexOf(w);
          if (at === -1) return;
          waiting.splice(at, 1);
          w.run();
        }, Math.max(0, maxWaitMs));
      }
      waiting.push(w);
      if (active === 0) later();
    },
  };
}

/** Work that never waits: tasks run on the next turn of the event loop, as without an activity. */
export const noActivity: Activity = {
  begin: () => () => undefined,
  whenIdle: (task) => void setImmediate(task),
};
