import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../testing/scripted-model.js';
import { JudgeUsageResult, judgeUsagePrompt, type JudgeUsageInput } from './judge-usage.js';
import { promptRef } from './prompt.js';

const zhInput: JudgeUsageInput = {
  userMessage: '明天要面试了，睡不着',
  reply: '别这么绷着，你准备得已经很充分了。',
  recalled: [
    { alias: '1', content: '主人喜欢猫' },
    { alias: '2', content: '主人很紧张' },
  ],
};
const enInput: JudgeUsageInput = {
  userMessage: 'What should I cook tonight?',
  reply: 'How about a mapo tofu without the pork?',
  recalled: [
    { alias: '1', content: 'The user is vegetarian' },
    { alias: '2', content: 'The user has a cat named Miso' },
  ],
};

describe('judgeUsagePrompt', () => {
  it('is versioned', () => {
    expect(promptRef(judgeUsagePrompt)).toBe('judge-usage@2');
  });

  it('builds a Chinese prompt with the recalled memories under aliases, the message and the reply', () => {
    const built = judgeUsagePrompt.build(zhInput);
    const text = built.messages[0]!.content;
    expect(text).toContain('## RECALLED memories\n[1] "主人喜欢猫"\n[2] "主人很紧张"');
    expect(text).toContain('## USER message\n"明天要面试了，睡不着"');
    expect(text).toContain('## ASSISTANT reply\n"别这么绷着，你准备得已经很充分了。"');
    expect(built.system).toContain('only if it actually shaped the reply');
    expect(built.system).toContain('"主人喜欢猫"');
    expect(built.system).toContain('"别这么绷着" -> used');
    expect(built.system).toContain("user's language");
  });

  it('builds an English prompt', () => {
    const built = judgeUsagePrompt.build(enInput);
    expect(built.messages[0]!.content).toContain('[1] "The user is vegetarian"\n[2] "The user has a cat named Miso"');
    expect(built.messages[0]!.content).toContain('## ASSISTANT reply\n"How about a mapo tofu without the pork?"');
    expect(built.system).toContain("user's language");
  });

  it('accepts a valid answer and rejects an invalid one', () => {
    expect(JudgeUsageResult.safeParse({ used: [] }).success).toBe(true);
    expect(JudgeUsageResult.safeParse({ used: [{ alias: '2', reason: '回复安抚了主人的紧张' }] }).success).toBe(true);
    expect(JudgeUsageResult.safeParse({ used: ['2'] }).success).toBe(false);
    expect(JudgeUsageResult.safeParse({ used: [{ alias: '2' }] }).success).toBe(false);
    expect(JudgeUsageResult.safeParse({}).success).toBe(false);
  });

  it('round-trips through the scripted model in Chinese and English', async () => {
    const model = scriptedModel({
      'judge-usage': ['{"used":[{"alias":"2","reason":"回复针对主人的紧张情绪"}]}', '{"used":[{"alias":"1","reason":"The dish is vegetarian because the user is."}]}', '{"used":[]}'],
    });
    expect((await model.generate(judgeUsagePrompt, zhInput)).output).toEqual({ used: [{ alias: '2', reason: '回复针对主人的紧张情绪' }] });
    expect((await model.generate(judgeUsagePrompt, enInput)).output.used.map((u) => u.alias)).toEqual(['1']);
    expect((await model.generate(judgeUsagePrompt, { ...zhInput, reply: '今天天气不错。' })).output.used).toEqual([]);
    await expect(model.generate(judgeUsagePrompt, { ...enInput, recalled: [] })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
