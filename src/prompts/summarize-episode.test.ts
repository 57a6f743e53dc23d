import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../testing/scripted-model.js';
import { promptRef } from './prompt.js';
import { EpisodeSummary, summarizeEpisodePrompt, type SummarizeEpisodeInput } from './summarize-episode.js';

const zhInput: SummarizeEpisodeInput = {
  language: 'zh',
  messages: [
    { role: 'user', content: '我最近在考虑换工作', time: '2025-01-20T10:00:00Z' },
    { role: 'assistant', content: '可以聊聊是什么原因吗？', time: '2025-01-20T10:00:05Z' },
    { role: 'user', content: '主要是压力太大了，但又怕收入下降', time: '2025-01-20T10:01:00Z' },
  ],
};
const enInput: SummarizeEpisodeInput = {
  messages: [
    { role: 'user', content: "I'm planning a trip to Kyoto in April", time: '2026-03-01T09:00:00Z' },
    { role: 'assistant', content: 'Nice! Any places in mind?', time: '2026-03-01T09:00:04Z' },
    { role: 'user', content: "Not yet, I haven't booked a hotel either", time: '2026-03-01T09:01:00Z' },
  ],
};

const zhAnswer = {
  summary: '用户讨论了换工作的想法。当前工作压力大是主要原因，但担心新工作收入下降。',
  topics: ['职业', '工作压力', '收入'],
  userIntent: '倾诉和梳理想法',
  emotionalTone: '焦虑、犹豫',
  keyFacts: ['当前工作压力大', '在考虑换工作', '担心收入下降'],
  unresolved: '是否真的要换工作',
};
const enAnswer = {
  summary: 'The user is planning a trip to Kyoto in April. Nothing is booked yet.',
  topics: ['travel', 'Kyoto', 'planning'],
  userIntent: 'Start planning the trip',
  emotionalTone: 'excited',
  keyFacts: ['The user plans to visit Kyoto in April'],
  unresolved: 'Which hotel to book',
};

describe('summarizeEpisodePrompt', () => {
  it('is versioned', () => {
    expect(promptRef(summarizeEpisodePrompt)).toBe('summarize-episode@3');
  });

  it('builds a Chinese prompt with the conversation and the rules', () => {
    const built = summarizeEpisodePrompt.build(zhInput);
    const text = built.messages[0]!.content;
    expect(built.messages).toHaveLength(1);
    expect(text).toContain('## Conversation');
    expect(text).toContain('Language: Chinese');
    expect(text).toContain('2025-01-20T10:01:00Z user: "主要是压力太大了，但又怕收入下降"');
    expect(text).toContain('assistant: "可以聊聊是什么原因吗？"');
    expect(built.system).toContain("user's language");
    expect(built.system).toContain('闲聊，无实质内容');
    expect(built.system).toContain("Leave out the assistant's opinions");
    expect(built.system).toMatch(/objective facts only/);
  });

  it('builds an English prompt that follows the conversation language when no hint is given', () => {
    const built = summarizeEpisodePrompt.build(enInput);
    const text = built.messages[0]!.content;
    expect(text).toContain('Language: the language the user wrote in.');
    expect(text).toContain('user: "I\'m planning a trip to Kyoto in April');
    expect(built.system).toContain('Small talk, nothing of substance');
    expect(built.system).toContain("user's language");
  });

  it('accepts a valid answer and rejects an invalid one', () => {
    expect(EpisodeSummary.safeParse(zhAnswer).success).toBe(true);
    expect(EpisodeSummary.parse({ ...enAnswer, unresolved: undefined }).unresolved).toBeNull();
    expect(EpisodeSummary.safeParse({ ...zhAnswer, topics: ['a', 'b', 'c', 'd', 'e', 'f'] }).success).toBe(false);
    expect(EpisodeSummary.safeParse({ ...zhAnswer, summary: '' }).success).toBe(false);
    expect(EpisodeSummary.safeParse({ ...zhAnswer, keyFacts: '当前工作压力大' }).success).toBe(false);
  });

  it('round-trips through the scripted model in Chinese and English', async () => {
    const model = scriptedModel([JSON.stringify(zhAnswer), '```json\n' + JSON.stringify(enAnswer) + '\n```']);
    const zh = await model.generate(summarizeEpisodePrompt, zhInput);
    const en = await model.generate(summarizeEpisodePrompt, enInput);
    expect(zh.output).toEqual(zhAnswer);
    expect(en.output).toEqual(enAnswer);
    expect(model.calls[0]!.prompt).toBe('summarize-episode@3');
    expect(model.calls[0]!.system).toContain('"emotionalTone"');
  });

  it('round-trips small talk and rejects an empty conversation', async () => {
    const model = scriptedModel(['{"summary":"闲聊，无实质内容","topics":["闲聊"],"userIntent":"打招呼","emotionalTone":"平静","keyFacts":[],"unresolved":null}']);
    const result = await model.generate(summarizeEpisodePrompt, { messages: [{ role: 'user', content: '在吗？哈哈', time: '2026-01-01T00:00:00Z' }] });
    expect(result.output.summary).toBe('闲聊，无实质内容');
    await expect(model.generate(summarizeEpisodePrompt, { messages: [] })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
