import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderPrompt } from '../models/structured-output.js';
import { ALL_PROMPTS, promptRef, type PromptModule } from './index.js';
import { outputFormatOf } from './output-format.js';

/**
 * Representative inputs, one or more per prompt, in Chinese and English: the system text (with
 * its JSON instructions) of each is hashed into prompt-versions.json under "id@version".
 */
const INPUTS: Record<string, unknown[]> = {
  'extract-memories': [
    { now: '2026-01-01T00:00:00Z', timeZone: 'Asia/Shanghai', existing: [{ alias: '1', kind: 'fact', content: '用户住在北京', date: '2025-12-01' }], context: [], messages: [{ ref: 'm1', role: 'user', content: '我搬到上海了', time: '2026-01-01T00:00' }] },
    { now: '2026-01-01T00:00:00Z', timeZone: 'UTC', existing: [], context: [], messages: [{ ref: 'm1', role: 'user', content: 'I like jazz', time: '2026-01-01T00:00' }], summarize: true },
  ],
  'summarize-episode': [{ messages: [{ role: 'user', content: '我在考虑换工作', time: '2026-01-01T00:00' }], language: 'zh' }, { messages: [{ role: 'user', content: 'Trip to Kyoto', time: '2026-01-01T00:00' }] }],
  'update-profile': [
    { currentNarrative: '', basicInfo: {}, newEpisodes: [], newFacts: [{ kind: 'identity', content: '用户叫李明', date: '2026-01-01' }] },
    { currentNarrative: 'Sam is a nurse.', basicInfo: { name: 'Sam' }, newEpisodes: [{ date: '2026-01-01', summary: 'Talked about Bob', keyFacts: [] }], newFacts: [], forgetTopic: 'Bob' },
  ],
  'review-memory': [
    { mode: 'promote', memory: { kind: 'identity', content: '主人的生日是3月14日', importance: 0.9, createdAt: '2026-01-03', accessCount: 12 }, related: [], searches: [], round: 1, maxRounds: 3 },
    { mode: 'decay', memory: { kind: 'fact', content: 'The user works at Initech', importance: 0.1, createdAt: '2025-01-03', accessCount: 0 }, related: [], searches: [], round: 3, maxRounds: 3 },
  ],
  'compress-memories': [{ kind: 'preference', memories: [{ alias: '1', content: '用户喜欢拉面', date: '2026-01-03' }, { alias: '2', content: 'The user likes ramen', date: '2026-01-04' }] }],
  'judge-usage': [{ userMessage: '明天要面试了', reply: 'Good luck', recalled: [{ alias: '1', content: '主人很紧张' }] }],
};

const SNAPSHOTS = new URL('./prompt-versions.json', import.meta.url);

function fingerprint(prompt: PromptModule<unknown, unknown>): string {
  const inputs = INPUTS[prompt.id];
  if (!inputs) throw new Error(`add representative inputs for prompt ${prompt.id} to prompt-snapshots.test.ts`);
  const hash = createHash('sha256');
  for (const input of inputs) hash.update(renderPrompt(prompt, input).system).update('\u0000');
  return hash.digest('hex').slice(0, 16);
}

describe('prompts cannot drift (issue 12 item 10)', () => {
  it('every compact output format is generated from its output schema', () => {
    for (const prompt of ALL_PROMPTS) {
      if (prompt.outputFormat !== undefined) expect(prompt.outputFormat, prompt.id).toBe(outputFormatOf(prompt.output));
    }
  });

  it('the extraction format names every field of its schema, the ones the hand-written one forgot included', () => {
    const format = ALL_PROMPTS.find((p) => p.id === 'extract-memories')!.outputFormat!;
    const update = format.split('\n').find((l) => l.includes('"op":"update"'))!;
    const add = format.split('\n').find((l) => l.includes('"op":"add"'))!;
    expect(update).toContain('"kind?":');
    expect(update).toContain('"importance?":0..1');
    expect(add).toContain('"structuredData?":');
    expect(add).toMatch(/"todo\?":\{[^}]*"dueAt\?":/);
  });

  it('a changed prompt text fails unless its version is bumped (prompt-versions.json: id@version -> hash)', () => {
    const recorded = JSON.parse(readFileSync(SNAPSHOTS, 'utf8')) as Record<string, string>;
    const current = Object.fromEntries(ALL_PROMPTS.map((p) => [promptRef(p), fingerprint(p)]));
    if (process.env['UPDATE_PROMPT_VERSIONS'] === '1') {
      // Only new id@version keys are added; a recorded hash is never rewritten.
      const merged = { ...current, ...recorded };
      writeFileSync(SNAPSHOTS, JSON.stringify(Object.fromEntries(Object.entries(merged).sort()), null, 2) + '\n');
      return;
    }
    for (const [ref, hash] of Object.entries(current)) {
      expect(recorded[ref], `${ref} is not recorded: a new version? run UPDATE_PROMPT_VERSIONS=1 npx vitest run src/prompts/prompt-snapshots.test.ts`).toBeDefined();
      expect(hash, `${ref}: the prompt text changed without a version bump; bump its version`).toBe(recorded[ref]);
    }
  });
});
