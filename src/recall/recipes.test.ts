import { describe, expect, it } from 'vitest';
import { RECIPES, resolveRecallConfig } from './recipes.js';

describe('resolveRecallConfig', () => {
  it('gives the recipe itself without overrides, and the same parsed config for the same overrides', () => {
    expect(resolveRecallConfig('context', undefined)).toBe(RECIPES.context);
    const a = resolveRecallConfig('context', { minRelevance: 0.1 });
    expect(a.minRelevance).toBe(0.1);
    expect(resolveRecallConfig('context', { minRelevance: 0.1 })).toBe(a);
    expect(resolveRecallConfig('hybrid', { minRelevance: 0.1 })).not.toBe(a);
    expect(resolveRecallConfig('context', { minRelevance: 0.2 }).minRelevance).toBe(0.2);
  });

  it('an override set to undefined is not taken for no override', () => {
    const absent = resolveRecallConfig('context', {});
    const unset = resolveRecallConfig('context', { minRelevance: undefined });
    expect(absent.minRelevance).toBe(RECIPES.context.minRelevance);
    expect(unset).not.toBe(absent);
  });

  it('a shared config cannot be changed by one caller for the next', () => {
    const c = resolveRecallConfig('context', { minRelevance: 0.1 });
    expect(() => Object.assign(c, { minRelevance: 0.9 })).toThrow(TypeError);
    expect(resolveRecallConfig('context', { minRelevance: 0.1 }).minRelevance).toBe(0.1);
  });
});
