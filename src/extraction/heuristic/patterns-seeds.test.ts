import { describe, expect, it } from 'vitest';
import type { MemoryOperation } from '../../domain/operations.js';
import { extractHeuristically } from './heuristic-extractor.js';

const at = new Date('2026-03-02T10:00:00Z'); // a Monday
const ops = (content: string): MemoryOperation[] =>
  extractHeuristically({ messages: [{ id: 'm1', role: 'user', content, createdAt: at }], existing: [], timeZone: 'UTC' }).operations;
const adds = (content: string) => ops(content).filter((o): o is Extract<MemoryOperation, { op: 'add' }> => o.op === 'add');

/** Every example sentence of seeds 000–004, said by the user, in Chinese and translated to English (issue 12.8). */
const SEEDS: ReadonlyArray<readonly [zh: string, en: string, kind: string, zhHas: string, enHas: string]> = [
  ['我喜欢猫', 'I like cats', 'preference', '猫', 'cats'],
  ['我养了一只叫小白的猫', 'I have a cat named Xiaobai', 'fact', '小白', 'Xiaobai'],
  ['我下周要去东京出差', 'I am going on a business trip to Tokyo next week', 'plan', '东京', 'Tokyo'],
  ['我叫李明', 'My name is Li Ming', 'identity', '李明', 'Li Ming'],
  ['我喜欢简洁的代码风格', 'I like a clean coding style', 'preference', '简洁', 'clean'],
  ['我正在开发一个 AI 对话助手项目', 'I am building an AI chat assistant project', 'fact', 'AI 对话助手项目', 'AI chat assistant project'],
  ['我的项目使用 FastAPI + Vue', 'My project uses FastAPI + Vue', 'fact', 'FastAPI', 'FastAPI'],
  ['我计划下周重构登录模块', 'I plan to refactor the login module next week', 'plan', '登录模块', 'login module'],
  ['我最近在考虑换工作', 'I have been thinking about changing jobs', 'plan', '换工作', 'changing jobs'],
  ['我偏好使用蓝色配色方案', 'I prefer a blue color scheme', 'preference', '蓝色', 'blue'],
  ['我们公司叫TechCorp', 'My company is called TechCorp', 'identity', 'TechCorp', 'TechCorp'],
  ['我之前做过类似的竞品分析', 'I have done a similar competitor analysis before', 'fact', '竞品分析', 'competitor analysis'],
  ['我通常在周一上午做周报', 'I usually write the weekly report on Monday morning', 'pattern', '周一上午做周报', 'usually writes the weekly report'],
  ['周五前完成报告', 'Finish the report before Friday', 'todo', '完成报告', 'Finish the report'],
  ['她是护士', 'She is a nurse', 'person', '护士', 'nurse'],
];

describe('the heuristic extractor reads every example sentence of the seeds (issue 12.8)', () => {
  it.each(SEEDS)('%s / %s', (zh, en, kind, zhHas, enHas) => {
    for (const [text, has] of [[zh, zhHas], [en, enHas]] as const) {
      const found = adds(text);
      expect(found.map((a) => a.kind), text).toContain(kind);
      expect(found.find((a) => a.kind === kind)!.content, text).toContain(has);
    }
  });

  it('a deadline without "remind me" is a todo due at the deadline, in both languages', () => {
    for (const text of ['周五前完成报告', 'Finish the report before Friday']) {
      const [todo] = adds(text);
      expect(todo!.todo?.dueAt?.slice(0, 10), text).toBe('2026-03-06');
    }
  });

  it('an employer change keeps only the new employer as current', () => {
    expect(adds('我之前在A公司工作，最近换到了B公司').map((a) => a.content)).toEqual(['用户在B公司工作']);
    expect(adds('I used to work at Company A and recently moved to Company B').map((a) => a.content)).toEqual(['The user works at Company B (previously Company A)']);
  });

  it('small talk still yields nothing', () => {
    for (const text of ['你好', '谢谢', 'hi there', 'thanks!']) expect(adds(text)).toEqual([]);
  });
});
