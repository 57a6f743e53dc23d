import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as prompts from './index.js';

describe('prompts index', () => {
  it('lists every prompt module in the folder, each with a unique id', () => {
    const files = readdirSync(new URL('.', import.meta.url)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'index.ts' && f !== 'prompt.ts' && f !== 'untrusted.ts' && f !== 'output-format.ts');
    const ids = prompts.ALL_PROMPTS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(files.map((f) => f.replace(/\.ts$/, '')).sort());
    expect(prompts.ALL_PROMPTS.map((p) => prompts.promptRef(p))).toContain('judge-usage@2');
  });
});
