import { describe, expect, it } from 'vitest';
import { createActivity } from './activity.js';

/** An activity whose idle checks and deadlines run when the test says; `idle` counts idle moments. */
function scripted() {
  const checks: Array<() => void> = [];
  const deadlines = new Map<number, () => void>();
  let nextDeadline = 0;
  let idle = 0;
  const activity = createActivity({
    onIdle: () => void idle++,
    schedule: (check) => void checks.push(check),
    timer: (fire) => {
      const id = nextDeadline++;
      deadlines.set(id, fire);
      return { cancel: () => void deadlines.delete(id) };
    },
  });
  const turn = (): void => {
    for (const check of checks.splice(0)) check();
  };
  const expire = (): void => {
    for (const [id, fire] of [...deadlines]) (deadlines.delete(id), fire());
  };
  return { activity, turn, expire, idleMoments: () => idle, pendingDeadlines: () => deadlines.size };
}

describe('activity', () => {
  it('has an idle moment on the next turn once no work is in flight', () => {
    const s = scripted();
    const end = s.activity.begin();
    s.turn();
    expect(s.idleMoments()).toBe(0);
    end();
    s.turn();
    expect(s.idleMoments()).toBe(1);
  });

  it('waits while other work is in flight, and when work starts again before the turn', () => {
    const s = scripted();
    const first = s.activity.begin();
    const second = s.activity.begin();
    first();
    s.turn();
    expect(s.idleMoments()).toBe(0);
    second();
    const third = s.activity.begin();
    s.turn();
    expect(s.idleMoments()).toBe(0);
    third();
    s.turn();
    expect(s.idleMoments()).toBe(1);
  });

  it('counts an end called twice once', () => {
    const s = scripted();
    const first = s.activity.begin();
    const second = s.activity.begin();
    first();
    first();
    s.turn();
    expect(s.idleMoments()).toBe(0);
    second();
    s.turn();
    expect(s.idleMoments()).toBe(1);
  });

  it('runs waiting tasks in idle moments, one per turn, in order, after the idle check', () => {
    const s = scripted();
    const ran: string[] = [];
    const end = s.activity.begin();
    s.activity.whenIdle(() => void ran.push(`写入一 first @${s.idleMoments()}`));
    s.activity.whenIdle(() => void ran.push(`写入二 second @${s.idleMoments()}`));
    s.turn();
    expect(ran).toEqual([]);
    end();
    s.turn();
    expect(ran).toEqual(['写入一 first @1']);
    // A request arriving between the two tasks holds the second back until it is over.
    const request = s.activity.begin();
    s.turn();
    expect(ran).toEqual(['写入一 first @1']);
    request();
    s.turn();
    expect(ran).toEqual(['写入一 first @1', '写入二 second @2']);
  });

  it('runs a task at once on the next turn when nothing is in flight', () => {
    const s = scripted();
    let ran = 0;
    s.activity.whenIdle(() => void ran++);
    expect(ran).toBe(0);
    s.turn();
    expect(ran).toBe(1);
  });

  it('runs a task at its deadline when the work never stops, and only once', () => {
    const s = scripted();
    let ran = 0;
    s.activity.begin();
    s.activity.whenIdle(() => void ran++, 1000);
    s.turn();
    expect(ran).toBe(0);
    s.expire();
    expect(ran).toBe(1);
    s.turn();
    expect(ran).toBe(1);
  });

  it('cancels the deadline of a task that ran in an idle moment', () => {
    const s = scripted();
    let ran = 0;
    s.activity.whenIdle(() => void ran++, 1000);
    expect(s.pendingDeadlines()).toBe(1);
    s.turn();
    expect(ran).toBe(1);
    expect(s.pendingDeadlines()).toBe(0);
  });

  it('works on the real event loop: a task waits for the request in flight', async () => {
    const activity = createActivity();
    const order: string[] = [];
    const end = activity.begin();
    activity.whenIdle(() => void order.push('flush'));
    await new Promise((resolve) => setImmediate(resolve));
    order.push('request over');
    end();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual(['request over', 'flush']);
  });
});
