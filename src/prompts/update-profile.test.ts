import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../testing/scripted-model.js';
import { promptRef } from './prompt.js';
import { ProfileUpdate, updateProfilePrompt, type UpdateProfileInput } from './update-profile.js';

const zhInput: UpdateProfileInput = {
  currentNarrative: '小明是一位有5年经验的后端程序员，在上海工作。\n\n性格理性但容易焦虑。',
  basicInfo: { name: '小明', occupation: '后端程序员' },
  newEpisodes: [{ date: '2025-01-18', summary: '用户讨论了换工作的想法，担心收入下降。', keyFacts: ['在考虑换工作'] }],
  newFacts: [{ kind: 'fact', content: '用户已经入职B公司', date: '2025-02-10' }],
};
const enInput: UpdateProfileInput = {
  currentNarrative: '',
  basicInfo: {},
  newEpisodes: [{ date: '2026-03-01', summary: 'The user is planning a trip to Kyoto in April.', keyFacts: ['Plans to visit Kyoto in April'] }],
  newFacts: [{ kind: 'identity', content: 'The user is called Sam and works as a nurse', date: '2026-03-01' }],
};

const zhAnswer = {
  narrative: '小明是一位有5年经验的后端程序员，在上海工作。之前在A公司，最近换到了B公司。\n\n他性格理性但容易焦虑。',
  basicInfo: { name: '小明', occupation: '后端程序员', location: '上海' },
  changes: '记录了小明换到B公司。',
};
const enAnswer = {
  narrative: 'Sam is a nurse.\n\nSam is planning a trip to Kyoto in April.',
  basicInfo: { name: 'Sam', occupation: 'nurse' },
  changes: 'First profile: name, job and the Kyoto trip.',
};

describe('updateProfilePrompt', () => {
  it('is versioned', () => {
    expect(promptRef(updateProfilePrompt)).toBe('update-profile@3');
  });

  it('builds a Chinese prompt with the current profile, new summaries and memories', () => {
    const built = updateProfilePrompt.build(zhInput);
    const text = built.messages[0]!.content;
    for (const section of ['## CURRENT profile', '## CURRENT basicInfo', '## NEW conversation summaries', '## NEW memories']) expect(text).toContain(section);
    expect(text).toContain('小明是一位有5年经验的后端程序员');
    expect(text).toContain('"name": "小明"');
    expect(text).toContain('- 2025-01-18: "用户讨论了换工作的想法，担心收入下降。"\n  fact: "在考虑换工作"');
    expect(text).toContain('- (fact, 2025-02-10) "用户已经入职B公司"');
    expect(text).not.toContain('FORGET');
    expect(built.system).toContain("user's language");
    expect(built.system).toContain('之前在A公司工作，最近换到了B公司');
    expect(built.system).toContain('Never drop old information');
    expect(built.system).toMatch(/No lists/);
    expect(built.system).not.toContain('FORGET');
  });

  it('builds an English cold-start prompt', () => {
    const built = updateProfilePrompt.build(enInput);
    const text = built.messages[0]!.content;
    expect(text).toContain('## CURRENT profile\n(new user: no profile yet)');
    expect(text).toContain('## CURRENT basicInfo\n(none)');
    expect(text).toContain('- (identity, 2026-03-01) "The user is called Sam and works as a nurse"');
    expect(built.system).toContain('新用户，尚无信息');
    expect(built.system).toContain("user's language");
    expect(updateProfilePrompt.build({ ...enInput, currentNarrative: '新用户，尚无信息' }).messages[0]!.content).toContain('(new user: no profile yet)');
  });

  it('adds the forget rule and topic only when a topic is to be forgotten', () => {
    const built = updateProfilePrompt.build({ ...zhInput, forgetTopic: '换工作' });
    expect(built.system).toContain('WITHOUT anything about it');
    expect(built.messages[0]!.content).toMatch(/## FORGET this topic\n"换工作"$/);
  });

  it('accepts a valid answer and rejects an invalid one', () => {
    expect(ProfileUpdate.safeParse(zhAnswer).success).toBe(true);
    expect(ProfileUpdate.parse({ ...enAnswer, basicInfo: { name: 'Sam', birthday: '03-14' } }).basicInfo).toEqual({ name: 'Sam', birthday: '03-14' });
    expect(ProfileUpdate.safeParse({ ...enAnswer, basicInfo: { age: 30 } }).success).toBe(false);
    expect(ProfileUpdate.safeParse({ ...enAnswer, narrative: '' }).success).toBe(false);
    expect(ProfileUpdate.safeParse({ narrative: 'x', basicInfo: {} }).success).toBe(false);
  });

  it('round-trips through the scripted model in Chinese and English', async () => {
    const model = scriptedModel([JSON.stringify(zhAnswer), JSON.stringify(enAnswer)]);
    const zh = await model.generate(updateProfilePrompt, zhInput);
    const en = await model.generate(updateProfilePrompt, enInput);
    expect(zh.output).toEqual(zhAnswer);
    expect(en.output).toEqual(enAnswer);
    expect(model.calls[1]!.system).toContain('"narrative"');
    await expect(model.generate(updateProfilePrompt, { ...enInput, forgetTopic: '  ' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
