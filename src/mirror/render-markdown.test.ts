import { describe, expect, it } from 'vitest';
import { mirrorEntries, renderMarkdown, stepsOf, type MirrorMemory } from './render-markdown.js';
import { parseMarkdown } from './parse-markdown.js';

const zh: MirrorMemory[] = [
  { id: 'm1', kind: 'preference', content: '喜欢吃拉面' },
  { id: 'm2', kind: 'fact', content: '在杭州做前端开发，用 TypeScript' },
  { id: 'm3', kind: 'preference', content: '不喜欢香菜' },
  { id: 'm4', kind: 'episode', content: '聊了面试' },
  { id: 'm5', kind: 'identity', content: '名字叫小明' },
];
const en: MirrorMemory[] = [
  { id: 'e1', kind: 'preference', content: 'Prefers a blue color scheme' },
  { id: 'e2', kind: 'pattern', content: 'Writes the weekly report on Monday morning' },
  { id: 'e3', kind: 'fact', content: 'Works at TechCorp\non AI products' },
];
const skills: MirrorMemory[] = [
  { id: 's1', kind: 'skill', content: 'Deep Research 任务', structuredData: { steps: ['web_search', 'read_url', 'summarize'] } },
  { id: 's2', kind: 'skill', content: 'Fix a flaky test', structuredData: { workflow: [{ step: 1, tool: 'rerun' }, { step: 2, description: 'pin the seed' }] } },
  { id: 's3', kind: 'skill', content: 'No steps yet' },
];

describe('renderMarkdown', () => {
  it('groups Chinese memories under Chinese headings, one marked line each, skipping non-semantic kinds', () => {
    const text = renderMarkdown({ file: 'memory', memories: zh });
    const lines = text.split('\n');
    expect(lines.slice(0, 2)).toEqual(['# 记忆', '']);
    expect(lines[2]).toMatch(/^<!-- 由 Engram 维护.*-->$/);
    expect(lines.slice(3)).toEqual([
      '',
      '## 基本信息',
      '',
      '- 名字叫小明 <!-- engram:m5 -->',
      '',
      '## 偏好',
      '',
      '- 喜欢吃拉面 <!-- engram:m1 -->',
      '- 不喜欢香菜 <!-- engram:m3 -->',
      '',
      '## 事实',
      '',
      '- 在杭州做前端开发，用 TypeScript <!-- engram:m2 -->',
      '',
    ]);
    expect(text).not.toContain('聊了面试');
  });

  it('uses English headings when most memories are English, and keeps each memory on one line', () => {
    const text = renderMarkdown({ file: 'memory', memories: en });
    expect(text).toContain('# Memory');
    expect(text).toContain('## Preferences\n\n- Prefers a blue color scheme <!-- engram:e1 -->');
    expect(text).toContain('- Works at TechCorp on AI products <!-- engram:e3 -->');
    expect(text).toContain('## Patterns');
  });

  it('honours an explicit language', () => {
    expect(renderMarkdown({ file: 'memory', memories: en, language: 'zh' })).toContain('## 偏好');
  });

  it('renders learnings as a heading per skill with numbered steps', () => {
    const text = renderMarkdown({ file: 'learnings', memories: [...skills, ...en] });
    expect(text).toContain('# Learnings');
    expect(text).toContain('## Deep Research 任务 <!-- engram:s1 -->\n\n1. web_search\n2. read_url\n3. summarize');
    expect(text).toContain('## Fix a flaky test <!-- engram:s2 -->\n\n1. rerun\n2. pin the seed');
    expect(text).not.toContain('blue');
  });

  it('stepsOf tolerates missing or odd data', () => {
    expect(stepsOf(undefined)).toEqual([]);
    expect(stepsOf({ steps: 'not a list' })).toEqual([]);
    expect(stepsOf({ steps: ['a', { text: 'b' }, 3, null] })).toEqual(['a', 'b', '3']);
  });
});

describe('round trip: render → parse gives the same entries', () => {
  it.each([
    ['memory', zh],
    ['memory', en],
    ['learnings', skills],
  ] as const)('%s', (file, memories) => {
    expect(parseMarkdown(renderMarkdown({ file, memories }))).toEqual(mirrorEntries({ file, memories }));
  });
});
