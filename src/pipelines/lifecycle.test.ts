import { describe, expect, it } from 'vitest';
import { EngramError } from '../errors.js';
import type { ReviewMemoryInput } from '../prompts/review-memory.js';
import { scriptedModel, type ScriptFunction } from '../testing/scripted-model.js';
import { closesAfterEach } from '../testing/closes-after-each.js';
import { testMemory } from '../testing/test-memory.js';

const make = closesAfterEach(
  (script?: ScriptFunction) => testMemory(script ? { model: scriptedModel(script) } : {}),
  (memory) => memory.close(),
);

describe('decay across simulated weeks (seed 001 table)', () => {
  it('episodes ×0.8 per week and gone after 14 days; facts ×0.95 per week; core and system never decay', async () => {
    const memory = make();
    const episode = await memory.add({ userId: 'u', kind: 'episode', content: '[2026-01-01] 聊了面试、游戏', importance: 1 });
    const fact = await memory.add({ userId: 'u', kind: 'fact', content: '用户喜欢拉面', importance: 0.5 });
    const core = await memory.add({ userId: 'u', kind: 'preference', content: 'The user was born on May 1', importance: 1, core: true });
    const system = await memory.add({ userId: 'u', kind: 'system', content: 'Always answer politely', importance: 0.5 });
    const importance = async (id: string) => (await memory.get('u', id)).importance;

    memory.clock.advanceDays(7);
    await memory.runLifecycle();
    expect(await importance(episode.id)).toBeCloseTo(0.8);
    expect(await importance(fact.id)).toBeCloseTo(0.475);
    // Twice in a row at the same instant changes nothing.
    const again = await memory.runLifecycle();
    expect(again).toMatchObject({ decayed: 0, archived: 0 });
    expect(await importance(fact.id)).toBeCloseTo(0.475);

    memory.clock.advanceDays(7);
    await memory.runLifecycle();
    expect((await memory.get('u', episode.id)).status).toBe('archived');
    expect(await importance(fact.id)).toBeCloseTo(0.45125);
    expect(await importance(core.id)).toBe(1);
    expect(await importance(system.id)).toBe(0.5);
    const history = await memory.history('u', fact.id);
    expect(history.filter((e) => e.action === 'decay').map((e) => e.after?.importance)).toEqual([0.475, 0.45125]);
    expect((await memory.history('u', episode.id)).at(-1)).toMatchObject({ action: 'archive', actor: 'lifecycle' });
  });

  it('archives what was not recalled for 90 days and is unimportant (seed 000), and expired memories', async () => {
    const memory = make();
    const minor = await memory.add({ userId: 'u', content: 'The user once mentioned a rainy day', importance: 0.3 });
    const expiring = await memory.add({ userId: 'u', content: '明天下午的会议改到三点', expiresAt: '2026-01-03T00:00:00Z', importance: 0.9 });
    memory.clock.advanceDays(3);
    await memory.runLifecycle();
    expect((await memory.get('u', expiring.id)).status).toBe('archived');
    expect((await memory.get('u', minor.id)).status).toBe('active');
    memory.clock.advanceDays(90);
    await memory.runLifecycle();
    expect((await memory.get('u', minor.id)).status).toBe('archived');
  });
});

describe('MemoryReviewer (seed 001)', () => {
  it('promotes after searching for more, within three rounds, and records the reason', async () => {
    const seen: ReviewMemoryInput[] = [];
    const memory = make((id, input) => {
      const i = input as ReviewMemoryInput;
      seen.push(i);
      return i.round === 1 ? { decision: 'search', query: '生日' } : { decision: 'promote', reason: '生日是长期稳定的重要事实' };
    });
    const birthday = await memory.add({ userId: 'u', kind: 'identity', content: '用户的生日是五月一日', importance: 0.9 });
    await memory.add({ userId: 'u', content: '用户每年生日都和家人吃饭' });
    await memory.runLifecycle();
    expect(seen.map((s) => s.round)).toEqual([1, 2]);
    expect(seen[1]!.searches[0]!.query).toBe('生日');
    expect(seen[1]!.searches[0]!.results.map((r) => r.content)).toContain('用户每年生日都和家人吃饭');
    expect(await memory.get('u', birthday.id)).toMatchObject({ core: true, importance: 1 });
    expect((await memory.history('u', birthday.id)).at(-1)).toMatchObject({ action: 'promote', actor: 'review', reason: '生日是长期稳定的重要事实', producedBy: 'review-memory@2' });
    // Not asked again until the memory changes.
    await memory.runLifecycle();
    expect(seen).toHaveLength(2);
  });

  it('a decay review keeps (resetting importance) or archives with a reason; a reviewer that keeps searching keeps it', async () => {
    let rounds = 0;
    const memory = make((_, input) => {
      const i = input as ReviewMemoryInput;
      rounds++;
      if (i.memory.content.includes('tired')) return { decision: 'delete', reason: 'a temporary state, long past' };
      return { decision: 'search', query: `more about ${i.memory.content}` };
    });
    const tired = await memory.add({ userId: 'u', content: 'The user was tired today', importance: 0.16 });
    const hobby = await memory.add({ userId: 'u', content: 'The user collects stamps', importance: 0.16 });
    await memory.runLifecycle();
    expect(await memory.get('u', tired.id)).toMatchObject({ status: 'archived' });
    expect((await memory.history('u', tired.id)).at(-1)).toMatchObject({ reason: 'a temporary state, long past', actor: 'review' });
    expect(await memory.get('u', hobby.id)).toMatchObject({ status: 'active', importance: 0.17 });
    expect((await memory.history('u', hobby.id)).at(-1)).toMatchObject({ action: 'review', reason: 'no decision within the round limit' });
    expect(rounds).toBe(1 + 3);
  });
});

describe('reinforcement by use (seed 001)', () => {
  it('with a model: only memories that shaped the reply are reinforced', async () => {
    const memory = make(() => ({ used: [{ alias: '2', reason: '回复在安抚紧张情绪' }, { alias: '9', reason: 'invented' }] }));
    const cats = await memory.add({ userId: 'u', content: '主人喜欢猫', importance: 0.5 });
    const tense = await memory.add({ userId: 'u', content: '主人最近很紧张', importance: 0.5 });
    const r = await memory.reportReply({ userId: 'u', message: '今天天气怎么样', reply: '天气不错，别这么绷着，出去走走吧', recalledIds: [cats.id, tense.id] });
    expect(r).toMatchObject({ used: [{ id: tense.id }], ignored: [cats.id], decidedBy: 'judge-usage@2' });
    expect((await memory.get('u', tense.id)).importance).toBeCloseTo(0.6);
    expect((await memory.get('u', cats.id)).importance).toBe(0.5);
  });

  it.each([
    ['garbage', () => 'I think memory 2 was used, probably?'],
    ['a timeout', () => {
      throw new EngramError('MODEL_TIMEOUT', 'the model took too long');
    }],
  ])('a model that answers %s: the similarity rule judges, the run says so, the turn does not fail (English and Chinese)', async (_what, answer) => {
    const memory = make(answer);
    const allergy = await memory.add({ userId: 'u', content: 'The user is allergic to peanuts', importance: 0.5 });
    const cat = await memory.add({ userId: 'u', content: '用户养了一只叫小白的猫', importance: 0.5 });
    const r = await memory.reportReply({ userId: 'u', message: 'snack ideas?', reply: 'Since you are allergic to peanuts, try rice crackers.', recalledIds: [allergy.id, cat.id] });
    expect(r).toMatchObject({ used: [{ id: allergy.id }], ignored: [cat.id], decidedBy: expect.stringMatching(/^similarity-rule \(model failed: MODEL_/u) });
    expect((await memory.get('u', allergy.id)).importance).toBeCloseTo(0.6);
    const zh = await memory.reportReply({ userId: 'u', message: '推荐猫粮', reply: '小白这个年纪的猫适合吃幼猫粮', recalledIds: [cat.id] });
    expect(zh.used.map((u) => u.id)).toEqual([cat.id]);
  });

  it('without a model: the similarity rule, in English and Chinese', async () => {
    const memory = make();
    const allergy = await memory.add({ userId: 'u', content: 'The user is allergic to peanuts', importance: 0.5 });
    const hiking = await memory.add({ userId: 'u', content: 'The user loves hiking in the Alps', importance: 0.5 });
    const r = await memory.reportReply({ userId: 'u', message: 'snack ideas?', reply: 'Since you are allergic to peanuts, try rice crackers.', recalledIds: [allergy.id, hiking.id] });
    expect(r).toMatchObject({ used: [{ id: allergy.id }], ignored: [hiking.id], decidedBy: 'similarity-rule' });
    const cat = await memory.add({ userId: 'u', content: '用户养了一只叫小白的猫' });
    const zh = await memory.reportReply({ userId: 'u', message: '推荐猫粮', reply: '小白这个年纪的猫适合吃幼猫粮', recalledIds: [cat.id] });
    expect(zh.used.map((u) => u.id)).toEqual([cat.id]);
  });
});

describe('compression (seed 004 §2.2) and relations', () => {
  it('merges old, rarely used memories of a kind, archives the originals and links them', async () => {
    const memory = make(() => ({ memories: [{ content: '用户喜欢日式料理：拉面、寿司和天妇罗', importance: 0.6, sources: ['1', '2', '3'] }] }));
    const olds = [];
    for (const food of ['拉面', '寿司', '天妇罗']) olds.push(await memory.add({ userId: 'u', kind: 'preference', content: `用户喜欢${food}` }));
    await memory.add({ userId: 'u', kind: 'fact', content: '用户住在上海' });
    memory.clock.advanceDays(91);
    const [report] = await memory.compress('u');
    expect(report).toMatchObject({ kind: 'preference', archived: olds.map((m) => m.id) });
    for (const m of olds) expect((await memory.get('u', m.id)).status).toBe('archived');
    const merged = await memory.get('u', report!.created[0]!);
    expect(merged).toMatchObject({ content: '用户喜欢日式料理：拉面、寿司和天妇罗', kind: 'preference', status: 'active' });
    const relations = await memory.relations('u', merged.id);
    expect(relations.map((r) => [r.type, r.targetId])).toEqual(olds.map((m) => ['derived-from', m.id]));
    expect((await memory.relations('u', olds[0]!.id))[0]!.sourceId).toBe(merged.id);
  });
});

describe('what a model writes is as long as a memory may be (an export of it must import back)', () => {
  it.each([
    ['zh', '用户喜欢日式料理：'],
    ['en', 'The user likes Japanese food: '],
  ])('%s: a compressed memory past 8,000 characters leaves the group as it was', async (_lang, head) => {
    const memory = make(() => ({ memories: [{ content: `${head}${'拉面'.repeat(4_100)}`, importance: 0.6, sources: ['1', '2', '3'] }] }));
    const olds = [];
    for (const food of ['拉面', '寿司', '天妇罗']) olds.push(await memory.add({ userId: 'u', kind: 'preference', content: `用户喜欢${food}` }));
    memory.clock.advanceDays(91);
    expect(await memory.compress('u')).toEqual([]);
    for (const m of olds) expect((await memory.get('u', m.id)).status).toBe('active');
  });
});

describe('procedural memory (seed 004 Layer 3)', () => {
  it('records a learning with its steps and recalls it for a similar task', async () => {
    const memory = make();
    const zh = await memory.recordLearning({ userId: 'u', task: '生成周报', steps: ['拉取本周数据', '写摘要', '发邮件'], tools: ['sql', 'email'] });
    expect(zh).toMatchObject({ kind: 'skill', content: '生成周报：拉取本周数据 → 写摘要 → 发邮件', structuredData: { steps: ['拉取本周数据', '写摘要', '发邮件'] } });
    await memory.recordLearning({ userId: 'u', task: 'Deploy the web app', steps: ['npm ci', 'npm run build'], error: 'EACCES on /var/www', fix: 'run the copy step with sudo' });
    expect((await memory.recallLearnings({ userId: 'u', task: '帮我写本周的周报' }))[0]!.memory.id).toBe(zh.id);
    expect((await memory.recallLearnings({ userId: 'u', task: 'deploy failed with EACCES' }))[0]!.memory.content).toContain('sudo');
  });
});
