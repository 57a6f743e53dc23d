import { describe, expect, it } from 'vitest';
import { MEMORY_KINDS } from '../domain/memory.js';
import { DEFAULT_DECAY_POLICY, DEFAULT_KIND_DECAY, DecayPolicy } from './decay-policy.js';

describe('DecayPolicy', () => {
  it('defaults to seed 001 on the 0..1 scale and seed 000 on /10', () => {
    expect(DEFAULT_DECAY_POLICY).toMatchObject({ forgetUnusedDays: 90, forgetUnusedBelow: 0.5, promoteReviewAt: 0.83, decayReviewBelow: 0.17 });
    expect(DEFAULT_DECAY_POLICY.kinds.episode).toMatchObject({ factor: 0.8, periodDays: 7, deleteAfterDays: 14 });
    expect(DEFAULT_DECAY_POLICY.kinds.fact).toMatchObject({ factor: 0.95, periodDays: 7, deleteBelow: 0.1 });
    expect(DEFAULT_DECAY_POLICY.kinds.system).toMatchObject({ factor: 1, forgetUnused: false, review: false });
    expect(Object.keys(DEFAULT_DECAY_POLICY.kinds).sort()).toEqual([...MEMORY_KINDS].sort());
  });

  it('overrides one kind and one number without touching the rest', () => {
    const p = DecayPolicy.parse({ forgetUnusedDays: 30, kinds: { fact: { factor: 0.9, deleteBelow: 0.2 } } });
    expect(p.forgetUnusedDays).toBe(30);
    expect(p.kinds.fact).toEqual({ factor: 0.9, periodDays: 7, deleteBelow: 0.2, forgetUnused: true, review: true });
    expect(p.kinds.episode).toEqual(DEFAULT_KIND_DECAY.episode);
  });

  it('rejects nonsense', () => {
    expect(DecayPolicy.safeParse({ kinds: { fact: { factor: 1.5 } } }).success).toBe(false);
    expect(DecayPolicy.safeParse({ kinds: { fact: { factor: 0.9, periodDays: 0 } } }).success).toBe(false);
    expect(DecayPolicy.safeParse({ promoteReviewAt: 3 }).success).toBe(false);
  });
});
