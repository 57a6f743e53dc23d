import { describe, expect, it } from 'vitest';
import type { MemoryKind } from '../domain/memory.js';
import { decay, type DecayInput, type DecayResult } from './decay.js';
import { DEFAULT_DECAY_POLICY, DecayPolicy } from './decay-policy.js';

const T0 = new Date('2026-01-01T00:00:00Z');
const day = (n: number) => new Date(T0.getTime() + n * 86_400_000);

function memory(over: Partial<DecayInput> = {}): DecayInput {
  return { kind: 'fact', core: false, importance: 0.5, createdAt: T0, updatedAt: T0, status: 'active', ...over };
}

/** Runs decay on each of `days`, storing importance and decayedAt as a caller would. */
function simulate(start: DecayInput, days: number[], policy = DEFAULT_DECAY_POLICY): Array<DecayResult & { day: number }> {
  let m = { ...start };
  const out: Array<DecayResult & { day: number }> = [];
  for (const d of days) {
    const r = decay(m, day(d), policy);
    out.push({ ...r, day: d });
    if (r.action === 'archive') break;
    m = { ...m, importance: r.importance, decayedAt: r.decayedAt };
  }
  return out;
}
const range = (from: number, to: number, step = 1) => Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);

describe('decay: seed 001 table', () => {
  it('episode: 1.0 → 0.8 after 7 days → archived after 14 days', () => {
    const ep = memory({ kind: 'episode', importance: 1 });
    expect(decay(ep, day(6)).action).toBe('none');
    const week1 = decay(ep, day(7));
    expect(week1).toMatchObject({ action: 'decayed', importance: 0.8, decayedAt: day(7) });
    expect(decay({ ...ep, importance: 0.8, decayedAt: day(7) }, day(13)).action).toBe('none');
    expect(decay({ ...ep, importance: 0.8, decayedAt: day(7) }, day(14)).action).toBe('archive');
  });

  it('episode is never sent to review, even at importance 1.0', () => {
    expect(decay(memory({ kind: 'episode', importance: 1 }), day(1)).action).toBe('none');
  });

  it('fact: 0.5 → 0.475 after 7 days → … → archived once below 0.1 (seed 001 0.3/3)', () => {
    // The 90-day unused rule is switched off here to isolate the table; it is tested below.
    const policy = DecayPolicy.parse({ forgetUnusedDays: 100_000 });
    const runs = simulate(memory(), range(7, 7 * 40, 7), policy);
    expect(runs[0]).toMatchObject({ action: 'decayed', day: 7 });
    expect(runs[0]!.importance).toBeCloseTo(0.475, 10);
    expect(runs[1]!.importance).toBeCloseTo(0.45125, 10);
    const last = runs.at(-1)!;
    expect(last.action).toBe('archive');
    expect(last.importance).toBeLessThan(0.1);
    // 0.5 × 0.95^n < 0.1 first at n = 32 weeks; reviews precede it once below 0.17.
    expect(last.day).toBe(7 * 32);
    expect(runs.at(-2)!.importance).toBeGreaterThanOrEqual(0.1);
    expect(runs.filter((r) => r.action === 'review-decay').length).toBeGreaterThan(0);
  });

  it.each(['preference', 'person', 'event', 'plan', 'todo', 'pattern'] as MemoryKind[])('%s decays like a fact', (kind) => {
    expect(decay(memory({ kind }), day(7)).importance).toBeCloseTo(0.475, 10);
  });

  it('core memories never change', () => {
    const core = memory({ core: true, importance: 0.2 });
    for (const d of [7, 70, 700]) expect(decay(core, day(d))).toMatchObject({ action: 'none', importance: 0.2 });
  });

  it('system memories never change and are never archived or reviewed', () => {
    const sys = memory({ kind: 'system', importance: 0.05 });
    for (const d of [7, 91, 700]) expect(decay(sys, day(d))).toMatchObject({ action: 'none', importance: 0.05 });
  });

  it('identity does not decay and is not forgotten when unused', () => {
    expect(decay(memory({ kind: 'identity', importance: 0.3 }), day(400))).toMatchObject({ action: 'none', importance: 0.3 });
  });

  it('skill does not decay but seed 000 forgets it when unused and unimportant', () => {
    expect(decay(memory({ kind: 'skill', importance: 0.4 }), day(60))).toMatchObject({ action: 'none', importance: 0.4 });
    expect(decay(memory({ kind: 'skill', importance: 0.4 }), day(90)).action).toBe('archive');
  });

  it('inactive memories are left alone', () => {
    expect(decay(memory({ status: 'archived' }), day(700))).toMatchObject({ action: 'none', importance: 0.5 });
  });
});

describe('decay: idempotence', () => {
  it('a second run at the same now changes nothing', () => {
    const first = decay(memory(), day(23));
    const second = decay({ ...memory(), importance: first.importance, decayedAt: first.decayedAt }, day(23));
    expect(first.decayedAt).toEqual(day(21));
    expect(second).toMatchObject({ importance: first.importance, decayedAt: first.decayedAt, action: 'none' });
  });

  it.each([
    ['fact', 0.9, 45],
    ['episode', 1, 13],
    ['preference', 0.3, 60],
  ] as Array<[MemoryKind, number, number]>)('%s: daily, weekly, irregular and single runs agree bit for bit', (kind, importance, end) => {
    const start = memory({ kind, importance, lastAccessedAt: day(0) });
    const final = (days: number[]) => simulate(start, days).at(-1)!;
    const daily = final(range(1, end));
    const weekly = final([...range(7, end, 7), end]);
    const irregular = final([3, 5, 8, 12, ...range(20, end, 11), end]);
    const once = final([end]);
    for (const other of [weekly, irregular, once]) {
      expect(other.importance).toBe(daily.importance);
      expect(other.decayedAt).toEqual(daily.decayedAt);
    }
  });

  it('a recall restarts the clock', () => {
    const m = memory({ importance: 0.5, decayedAt: day(7), lastAccessedAt: day(10) });
    expect(decay(m, day(16)).action).toBe('none');
    expect(decay(m, day(17))).toMatchObject({ action: 'decayed', decayedAt: day(17) });
  });
});

describe('decay: seed 000 90-day rule', () => {
  it('archives when not recalled for 90 days and importance below 0.5', () => {
    const m = memory({ kind: 'identity', importance: 0.2 });
    const policy = DecayPolicy.parse({ kinds: { identity: { factor: 1, forgetUnused: true } } });
    expect(decay({ ...m, lastAccessedAt: day(1) }, day(90), policy).action).toBe('none');
    expect(decay({ ...m, lastAccessedAt: day(1) }, day(91), policy)).toMatchObject({ action: 'archive' });
    expect(decay(m, day(91), policy).reason).toMatch(/not recalled for 91 days/);
  });

  it('keeps an important memory however long unused', () => {
    const policy = DecayPolicy.parse({ kinds: { fact: { factor: 1 } } });
    expect(decay(memory({ importance: 0.5 }), day(365), policy).action).toBe('none');
  });

  it('uses the decayed importance: a 0.5 fact unused for 91 days is forgotten', () => {
    expect(decay(memory({ importance: 0.5 }), day(91)).action).toBe('archive');
  });
});

describe('decay: expiry', () => {
  it('archives at expiresAt, even core and system memories', () => {
    const expiresAt = day(3);
    expect(decay(memory({ expiresAt }), day(2)).action).toBe('none');
    expect(decay(memory({ expiresAt }), day(3)).action).toBe('archive');
    expect(decay(memory({ expiresAt, core: true }), day(4)).action).toBe('archive');
    expect(decay(memory({ expiresAt, kind: 'system' }), day(4)).action).toBe('archive');
  });
});

describe('decay: review triggers', () => {
  it('asks for a promotion review at 0.83 (seed 001 2.5/3) unless core', () => {
    expect(decay(memory({ importance: 0.83 }), day(1)).action).toBe('review-promote');
    expect(decay(memory({ importance: 0.82 }), day(1)).action).toBe('none');
    expect(decay(memory({ importance: 0.9, core: true }), day(1)).action).toBe('none');
  });

  it('asks for a decay review between the delete threshold and 0.17 (seed 001 0.5/3)', () => {
    expect(decay(memory({ importance: 0.16, lastAccessedAt: day(0) }), day(1)).action).toBe('review-decay');
    expect(decay(memory({ importance: 0.17 }), day(1)).action).toBe('none');
    expect(decay(memory({ importance: 0.09 }), day(1)).action).toBe('archive');
  });

  it('reports a review on the run that decays across the threshold', () => {
    const r = decay(memory({ importance: 0.85 }), day(7));
    expect(r.importance).toBeCloseTo(0.8075, 10);
    expect(r.action).toBe('decayed');
    expect(decay(memory({ importance: 0.175 }), day(7)).action).toBe('review-decay');
  });

  it('every threshold is a setting', () => {
    const policy = DecayPolicy.parse({ promoteReviewAt: 0.6, decayReviewBelow: 0.4 });
    expect(decay(memory({ importance: 0.7 }), day(1), policy).action).toBe('review-promote');
    expect(decay(memory({ importance: 0.3 }), day(1), policy).action).toBe('review-decay');
  });
});

describe('decay: safe by construction (issue 12.1)', () => {
  it.each([
    ['用户对青霉素过敏', 'health'],
    ['The user is allergic to penicillin', 'health'],
    ['用户的妻子叫王芳', 'family'],
    ["The user's wife is called Anna", 'family'],
    ['紧急联系人是张伟', 'safety'],
    ['Emergency contact: Bob, 555-0101', 'safety'],
  ])('"%s" (%s) never decays and is never archived', (content) => {
    const m = memory({ content, importance: 0.3 });
    expect(decay(m, day(400))).toMatchObject({ action: 'none', importance: 0.3 });
  });

  it('the top of the scale never decays, but may still be reviewed for promotion', () => {
    expect(decay(memory({ importance: 1, content: 'The user likes jazz' }), day(400))).toMatchObject({ action: 'review-promote', importance: 1 });
    expect(decay(memory({ importance: 0.95, content: '用户喜欢爵士乐', kind: 'pattern' }), day(400)).importance).toBe(0.95);
  });

  it('a reason never prints a value just under a threshold as the threshold', () => {
    const r = decay(memory({ importance: 0.105, content: 'x' }), day(7));
    expect(r.action).toBe('archive');
    expect(r.reason).toMatch(/^importance 0\.099\d* fell below 0\.1$/);
  });

  it('a review that kept a memory restarts the 90-day clock', () => {
    const m = memory({ importance: 0.3, content: 'The user mentioned a rainy day', decayedAt: day(90), reviewedAt: day(90) });
    expect(decay(m, day(120)).action).not.toBe('archive');
  });
});
