import { describe, expect, it } from 'vitest';
import { parseMarkdown } from './parse-markdown.js';

describe('parseMarkdown: memory.md', () => {
  it('reads marked lines under Chinese headings', () => {
    const text = '# 记忆\n\n## 偏好\n\n- 喜欢吃拉面 <!-- engram:m1 -->\n\n## 事实\n\n- 在杭州工作 <!-- engram:m2 -->\n';
    expect(parseMarkdown(text)).toEqual([
      { id: 'm1', kind: 'preference', content: '喜欢吃拉面' },
      { id: 'm2', kind: 'fact', content: '在杭州工作' },
    ]);
  });

  it('tolerates CRLF, blank lines, other bullets, comments and prose', () => {
    const text = [
      '\uFEFF# Memory',
      '<!-- Maintained by Engram.',
      '- not a memory, inside a comment -->',
      '',
      '## Preferences',
      'Some prose a person wrote.',
      '',
      '',
      '*   Prefers dark mode   <!--engram:e1-->  ',
      '+ Likes ramen',
      '1. Drinks tea, not coffee <!-- engram:e2 -->',
      '-   ',
      '## People ##',
      '- Alice is my sister <!-- engram:e3 --> <!-- a note -->',
    ].join('\r\n');
    expect(parseMarkdown(text)).toEqual([
      { id: 'e1', kind: 'preference', content: 'Prefers dark mode' },
      { kind: 'preference', content: 'Likes ramen' },
      { id: 'e2', kind: 'preference', content: 'Drinks tea, not coffee' },
      { id: 'e3', kind: 'person', content: 'Alice is my sister' },
    ]);
  });

  it('a line moved under another heading takes that kind; headings in either language or as kind ids', () => {
    const text = '# Memory\n## 待办\n- Buy milk <!-- engram:e1 -->\n## plan\n- 下周去东京 <!-- engram:m9 -->\n## To-dos\n- 交周报\n';
    expect(parseMarkdown(text).map((e) => e.kind)).toEqual(['todo', 'plan', 'todo']);
  });

  it('a heading someone added keeps the kind of the section it is in; lines before any heading are facts', () => {
    const text = '- 养了一只猫\n## 偏好\n### 吃的\n- 喜欢拉面 <!-- engram:m1 -->\n## 旅行\n- 想去冰岛\n';
    expect(parseMarkdown(text)).toEqual([
      { kind: 'fact', content: '养了一只猫' },
      { id: 'm1', kind: 'preference', content: '喜欢拉面' },
      { kind: 'preference', content: '想去冰岛' },
    ]);
  });

  it('keeps text that merely looks like a marker in the middle of a line', () => {
    expect(parseMarkdown('## Facts\n- uses <!-- engram:x --> in docs <!-- engram:e5 -->')).toEqual([
      { id: 'e5', kind: 'fact', content: 'uses <!-- engram:x --> in docs' },
    ]);
  });
});

describe('parseMarkdown: learnings.md', () => {
  it('reads a heading per learning with its steps, detected from the title', () => {
    const text = [
      '# 经验',
      '',
      '## 周报流程 <!-- engram:s1 -->',
      'Prose is ignored.',
      '1. 拉取本周数据',
      '2) 写摘要',
      '',
      '## Fix a flaky test',
      '- rerun',
      '* pin the seed',
    ].join('\r\n');
    expect(parseMarkdown(text)).toEqual([
      { id: 's1', kind: 'skill', content: '周报流程', steps: ['拉取本周数据', '写摘要'] },
      { kind: 'skill', content: 'Fix a flaky test', steps: ['rerun', 'pin the seed'] },
    ]);
  });

  it('can be told which file it reads', () => {
    expect(parseMarkdown('## Deploy <!-- engram:s2 -->\n1. build', { file: 'learnings' })).toEqual([
      { id: 's2', kind: 'skill', content: 'Deploy', steps: ['build'] },
    ]);
  });
});
