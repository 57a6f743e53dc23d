import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SummarizeEpisodeInput } from '../prompts/summarize-episode.js';
import { sequentialIds } from '../testing/clock.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { testMemory } from '../testing/test-memory.js';

let dir: string;
let engines: Array<ReturnType<typeof testMemory>> = [];
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'engram-summary-lease-'));
});
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
  rmSync(dir, { recursive: true, force: true });
});

const summaryOf = (input: SummarizeEpisodeInput) => {
  const zh = input.language === 'zh';
  return {
    summary: zh ? '用户聊了换工作的打算' : 'The user talked about changing jobs',
    topics: zh ? ['工作'] : ['work'],
    userIntent: zh ? '倾诉' : 'to vent',
    emotionalTone: zh ? '焦虑' : 'anxious',
    keyFacts: [],
    unresolved: null,
  };
};

const CHATS = {
  zh: ['我最近在考虑换工作', '可以聊聊原因吗？', '主要是压力太大了'],
  en: ['I am thinking about changing jobs', 'What makes you think so?', 'Mostly the pressure at work'],
} as const;

/**
 * Two engines on one database (one SQLite file, or one PostgreSQL schema), each with its own
 * worker id and id generator: two server processes. The model holds the first summary call until
 * a second call arrives or one of the two summaries has returned.
 */
function twoProcesses() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const summaryCalls: string[] = [];
  const model = scriptedModel(async (id, input) => {
    if (id !== 'summarize-episode') return { operations: [{ op: 'skip', reason: 'n/a' }], reason: 'n/a' };
    summaryCalls.push(String((input as SummarizeEpisodeInput).language));
    if (summaryCalls.length >= 2) release();
    await gate;
    return summaryOf(input as SummarizeEpisodeInput);
  });
  const file = path.join(dir, 'shared.db');
  const [a, b] = (['A', 'B'] as const).map((w) => testMemory({ path: file, model, workerId: `worker-${w}`, ids: sequentialIds(`id-${w}`) }));
  engines.push(a!, b!);
  return { a: a!, b: b!, summaryCalls, release };
}

describe('episode summaries across processes', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`two engines on one database summarising one session at once write exactly one episode, with one model call (${lang})`, async () => {
      const { a, b, summaryCalls, release } = twoProcesses();
      a.clock.set('2026-03-02T10:00:00Z');
      b.clock.set('2026-03-02T10:00:00Z');
      await a.appendMessages({
        messages: CHATS[lang].map((content, i) => ({ id: `m${i}`, userId: 'u', sessionId: 's', role: i % 2 === 0 ? ('user' as const) : ('assistant' as const), content, createdAt: new Date(Date.parse('2026-03-02T10:00:00Z') + i * 1000) })),
      });
      await a.idle();
      const runs = [a.summarize('u', 's'), b.summarize('u', 's')];
      // Whichever returns first lets the held model call finish.
      void Promise.race(runs).then(release, release);
      const reports = await Promise.all(runs);
      expect(reports.map((r) => r.status).sort()).toEqual(['nothing', 'summarized']);
      expect(reports.find((r) => r.status === 'nothing')!.reason).toBe('another worker is summarising this session');
      expect(summaryCalls).toEqual([lang]);
      const episodes = await b.list({ userId: 'u', kinds: ['episode'] });
      expect(episodes).toHaveLength(1);
      expect(episodes[0]!.content).toContain(lang === 'zh' ? '换工作' : 'changing jobs');
      // The lease was released: the next summary (of new messages) runs in either engine.
      await b.appendMessages({ messages: [{ id: 'm9', userId: 'u', sessionId: 's', role: 'user', content: lang === 'zh' ? '我决定辞职了' : 'I decided to quit', createdAt: new Date('2026-03-02T11:00:00Z') }] });
      expect((await b.summarize('u', 's')).status).toBe('summarized');
      expect(await a.list({ userId: 'u', kinds: ['episode'] })).toHaveLength(2);
    });
  }
});
