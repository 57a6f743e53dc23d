import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../testing/scripted-model.js';
import { CompressMemoriesResult, compressMemoriesPrompt, type CompressMemoriesInput } from './compress-memories.js';
import { promptRef } from './prompt.js';

const zhInput: CompressMemoriesInput = {
  kind: 'preference',
  memories: [
    { alias: '1', content: '用户喜欢拉面', date: '2026-01-03' },
    { alias: '2', content: '用户很喜欢吃豚骨拉面', date: '2026-01-20' },
    { alias: '3', content: '用户不吃香菜', date: '2026-02-01' },
  ],
};
const enInput: CompressMemoriesInput = {
  kind: 'fact',
  memories: [
    { alias: '1', content: 'The user lives in Berlin', date: '2025-05-01' },
    { alias: '2', content: 'The user moved to Lisbon', date: '2026-03-02' },
  ],
};

const zhAnswer = { memories: [{ content: '用户喜欢拉面，尤其是豚骨拉面；不吃香菜', importance: 0.7, sources: ['1', '2', '3'] }] };
const enAnswer = { memories: [{ content: 'The user lived in Berlin and moved to Lisbon in March 2026', importance: 0.8, sources: ['1', '2'] }] };

describe('compressMemoriesPrompt', () => {
  it('is versioned', () => {
    expect(promptRef(compressMemoriesPrompt)).toBe('compress-memories@2');
  });

  it('builds a Chinese prompt with the memories under aliases', () => {
    const built = compressMemoriesPrompt.build(zhInput);
    const text = built.messages[0]!.content;
    expect(text).toContain('Kind: preference');
    expect(text).toContain('## MEMORIES to compress\n[1] (2026-01-03) "用户喜欢拉面"\n[2] (2026-01-20) "用户很喜欢吃豚骨拉面"\n[3] (2026-02-01) "用户不吃香菜"');
    expect(built.system).toContain('Keep every essential fact');
    expect(built.system).toContain('Merge duplicates');
    expect(built.system).toContain('Keep the dates that matter');
    expect(built.system).toContain('Add no new information');
    expect(built.system).toContain("user's language");
  });

  it('builds an English prompt', () => {
    const built = compressMemoriesPrompt.build(enInput);
    expect(built.messages[0]!.content).toContain('Kind: fact\n\n## MEMORIES to compress\n[1] (2025-05-01) "The user lives in Berlin"\n[2] (2026-03-02) "The user moved to Lisbon"');
    expect(built.system).toContain('Every input alias must appear');
    expect(built.system).toContain("user's language");
  });

  it('accepts a valid answer and rejects an invalid one', () => {
    expect(CompressMemoriesResult.safeParse(zhAnswer).success).toBe(true);
    expect(CompressMemoriesResult.safeParse({ memories: [] }).success).toBe(false);
    const four = Array.from({ length: 4 }, (_, i) => ({ content: `m${i}`, importance: 0.5, sources: [String(i)] }));
    expect(CompressMemoriesResult.safeParse({ memories: four }).success).toBe(false);
    expect(CompressMemoriesResult.safeParse({ memories: [{ content: 'x', importance: 1.5, sources: ['1'] }] }).success).toBe(false);
    expect(CompressMemoriesResult.safeParse({ memories: [{ content: 'x', importance: 0.5, sources: [] }] }).success).toBe(false);
  });

  it('round-trips through the scripted model in Chinese and English', async () => {
    const model = scriptedModel([JSON.stringify(zhAnswer), JSON.stringify(enAnswer), '{"memories":[{"content":"x","importance":"high","sources":["1"]}]}']);
    expect((await model.generate(compressMemoriesPrompt, zhInput)).output).toEqual(zhAnswer);
    expect((await model.generate(compressMemoriesPrompt, enInput)).output).toEqual(enAnswer);
    await expect(model.generate(compressMemoriesPrompt, enInput)).rejects.toMatchObject({ code: 'MODEL_OUTPUT_INVALID' });
    await expect(model.generate(compressMemoriesPrompt, { ...enInput, memories: enInput.memories.slice(0, 1) })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
