import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../testing/scripted-model.js';
import { promptRef } from './prompt.js';
import { ReviewDecision, reviewMemoryPrompt, type ReviewMemoryInput } from './review-memory.js';

const zhPromote: ReviewMemoryInput = {
  mode: 'promote',
  memory: { kind: 'identity', content: '主人的生日是3月14日', importance: 0.9, createdAt: '2026-01-03', accessCount: 12 },
  related: [
    { alias: '1', kind: 'event', content: '主人去年生日吃了火锅', date: '2025-03-14' },
    { alias: '2', kind: 'preference', content: '主人喜欢拉面', date: '2026-01-05' },
  ],
  searches: [],
  round: 1,
  maxRounds: 3,
};
const enDecay: ReviewMemoryInput = {
  mode: 'decay',
  memory: { kind: 'fact', content: 'The user works at Acme', importance: 0.3, createdAt: '2025-06-01', accessCount: 1 },
  related: [{ alias: '1', kind: 'fact', content: 'The user moved from Acme to Globex in March', date: '2026-03-02' }],
  searches: [{ query: 'job Globex', results: [{ alias: '2', content: 'The user started at Globex on 2026-03-01' }] }],
  round: 3,
  maxRounds: 3,
  now: '2026-04-01T00:00:00Z',
};

describe('reviewMemoryPrompt', () => {
  it('is versioned', () => {
    expect(promptRef(reviewMemoryPrompt)).toBe('review-memory@2');
  });

  it('builds a Chinese promote review with the core-memory criteria and related memories under aliases', () => {
    const built = reviewMemoryPrompt.build(zhPromote);
    const text = built.messages[0]!.content;
    expect(text).toContain('Mode: promote. Round 1 of 3: you may search or decide.');
    expect(text).toContain('## MEMORY under review\n(identity, created 2026-01-03, importance 0.90, used 12 times) "主人的生日是3月14日"');
    expect(text).toContain('## RELATED memories\n[1] (event, 2025-03-14) "主人去年生日吃了火锅"\n[2] (preference, 2026-01-05) "主人喜欢拉面"');
    expect(text).not.toContain('## SEARCH');
    expect(built.system).toContain('PROMOTE it to core memory');
    expect(built.system).toContain('temporary states');
    expect(built.system).toContain('short-term plans');
    expect(built.system).toContain('came up often recently');
    expect(built.system).toContain('While round < maxRounds you may answer');
    expect(built.system).toContain("user's language");
    expect(built.system).toContain('only by their alias');
  });

  it('builds an English decay review in its last round, with earlier searches', () => {
    const built = reviewMemoryPrompt.build(enDecay);
    const text = built.messages[0]!.content;
    expect(text).toContain('Round 3 of 3: the last round, decide now (no search).');
    expect(text).toContain('Now: 2026-04-01T00:00:00Z');
    expect(text).toContain('## SEARCH 1: "job Globex"\n[2] "The user started at Globex on 2026-03-01"');
    expect(built.system).toContain('Is this memory still valuable');
    expect(built.system).toContain('Has a newer memory replaced');
    expect(built.system).toContain('forget something important');
    expect(built.system).not.toContain('PROMOTE it to core memory');
    expect(built.system).toContain("user's language");
  });

  it('accepts a valid answer and rejects an invalid one', () => {
    expect(ReviewDecision.parse({ decision: 'search', query: '生日' })).toEqual({ decision: 'search', query: '生日' });
    expect(ReviewDecision.safeParse({ decision: 'delete', reason: 'Replaced by a newer job.', supersededBy: '1' }).success).toBe(true);
    expect(ReviewDecision.safeParse({ decision: 'search' }).success).toBe(false);
    expect(ReviewDecision.safeParse({ decision: 'keep' }).success).toBe(false);
    expect(ReviewDecision.safeParse({ decision: 'archive', reason: 'x' }).success).toBe(false);
  });

  it('round-trips a search then a verdict in Chinese, and a verdict in English', async () => {
    const model = scriptedModel([
      '{"decision":"search","query":"生日"}',
      '{"decision":"promote","reason":"生日是长期稳定的重要事实"}',
      '<think>Acme is outdated.</think>{"decision":"delete","reason":"The user no longer works at Acme.","supersededBy":"1"}',
    ]);
    const first = await model.generate(reviewMemoryPrompt, zhPromote);
    const second = await model.generate(reviewMemoryPrompt, { ...zhPromote, round: 2, searches: [{ query: '生日', results: [{ alias: '3', content: '主人说生日那天想吃蛋糕' }] }] });
    const en = await model.generate(reviewMemoryPrompt, enDecay);
    expect(first.output).toEqual({ decision: 'search', query: '生日' });
    expect(second.output).toEqual({ decision: 'promote', reason: '生日是长期稳定的重要事实' });
    expect(en.output).toEqual({ decision: 'delete', reason: 'The user no longer works at Acme.', supersededBy: '1' });
    expect(model.calls[1]!.messages[0]!.content).toContain('## SEARCH 1: "生日"\n[3] "主人说生日那天想吃蛋糕"');
    await expect(model.generate(reviewMemoryPrompt, { ...enDecay, round: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
