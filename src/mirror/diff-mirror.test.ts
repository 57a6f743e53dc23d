import { describe, expect, it } from 'vitest';
import { diffMirror } from './diff-mirror.js';
import { parseMarkdown } from './parse-markdown.js';
import { mirrorEntries, renderMarkdown, type MirrorMemory } from './render-markdown.js';
import type { MirrorEntry } from './mirror-format.js';

const zhDb: MirrorMemory[] = [
  { id: 'm1', kind: 'preference', content: '喜欢吃拉面' },
  { id: 'm2', kind: 'fact', content: '在杭州工作' },
  { id: 'm3', kind: 'person', content: '妹妹叫小红' },
];
const enDb: MirrorMemory[] = [
  { id: 'e1', kind: 'preference', content: 'Prefers dark mode' },
  { id: 'e2', kind: 'fact', content: 'Works at TechCorp' },
  { id: 'e3', kind: 'person', content: 'Alice is my sister' },
];

/** Engram writes the file; a person edits the text; the database may have moved on meanwhile. */
function sync(memories: MirrorMemory[], edit: (text: string) => string, db: MirrorEntry[] = mirrorEntries({ file: 'memory', memories })) {
  const written = renderMarkdown({ file: 'memory', memories });
  const base = mirrorEntries({ file: 'memory', memories });
  return diffMirror({ base, file: parseMarkdown(edit(written)), db });
}
const dbWith = (memories: MirrorMemory[], change: (e: MirrorEntry[]) => MirrorEntry[]) => change(mirrorEntries({ file: 'memory', memories }));

describe.each([
  ['Chinese', zhDb, { a: '喜欢吃拉面', a2: '喜欢吃豚骨拉面', aDb: '喜欢吃味噌拉面', b: '在杭州工作', c: '妹妹叫小红', added: '养了一只猫', kindHeading: '## 事实' }],
  ['English', enDb, { a: 'Prefers dark mode', a2: 'Prefers dark mode everywhere', aDb: 'Prefers a dark theme', b: 'Works at TechCorp', c: 'Alice is my sister', added: 'Has a cat', kindHeading: '## Facts' }],
] as const)('diffMirror (%s)', (_lang, memories, t) => {
  const ids = memories.map((m) => m.id);
  const [idA, idB, idC] = ids as [string, string, string];

  it('an untouched file changes nothing', () => {
    expect(sync(memories, (x) => x)).toEqual({ toDb: [], conflicts: [] });
  });

  it('an edit in the file updates the database', () => {
    expect(sync(memories, (x) => x.replace(t.a, t.a2)).toDb).toEqual([{ op: 'update', id: idA, kind: 'preference', content: t.a2 }]);
  });

  it('a line without a marker is a new memory of its heading\'s kind', () => {
    const r = sync(memories, (x) => x.replace(`${t.kindHeading}\n\n`, `${t.kindHeading}\n\n* ${t.added}\n`));
    expect(r.toDb).toEqual([{ op: 'add', kind: 'fact', content: t.added }]);
  });

  it('a removed line is a deletion', () => {
    const r = sync(memories, (x) => x.split('\n').filter((l) => !l.includes(t.b)).join('\n'));
    expect(r.toDb).toEqual([{ op: 'delete', id: idB, kind: 'fact', content: t.b }]);
  });

  it('a line moved under another heading changes its kind', () => {
    const r = sync(memories, (x) => {
      const lines = x.split('\n').filter((l) => !l.includes(t.a));
      return [...lines, `- ${t.a} <!-- engram:${idA} -->`].join('\n');
    });
    expect(r.toDb).toEqual([{ op: 'update', id: idA, kind: memories[2]!.kind, content: t.a }]);
  });

  it('a change made only in the database stays (the file will be rewritten)', () => {
    const db = dbWith(memories, (es) => es.map((e) => (e.id === idA ? { ...e, content: t.aDb } : e)).filter((e) => e.id !== idC));
    expect(sync(memories, (x) => x, db)).toEqual({ toDb: [], conflicts: [] });
  });

  it('both sides changed the same memory differently: db kept, file version added as new, conflict reported', () => {
    const db = dbWith(memories, (es) => es.map((e) => (e.id === idA ? { ...e, content: t.aDb } : e)));
    const r = sync(memories, (x) => x.replace(t.a, t.a2), db);
    expect(r.toDb).toEqual([{ op: 'add', kind: 'preference', content: t.a2 }]);
    expect(r.conflicts).toEqual([{ id: idA, file: t.a2, db: t.aDb }]);
  });

  it('both sides made the same change: nothing to do', () => {
    const db = dbWith(memories, (es) => es.map((e) => (e.id === idA ? { ...e, content: t.a2 } : e)));
    expect(sync(memories, (x) => x.replace(t.a, t.a2), db)).toEqual({ toDb: [], conflicts: [] });
  });

  it('different fields changed on each side merge: file moved it, db edited the text', () => {
    const db = dbWith(memories, (es) => es.map((e) => (e.id === idA ? { ...e, content: t.aDb } : e)));
    const r = sync(memories, (x) => [...x.split('\n').filter((l) => !l.includes(t.a)), `- ${t.a} <!-- engram:${idA} -->`].join('\n'), db);
    expect(r).toEqual({ toDb: [{ op: 'update', id: idA, kind: memories[2]!.kind, content: t.aDb }], conflicts: [] });
  });

  it('a deletion never beats an edit: deleted in the file, changed in the db → db kept', () => {
    const db = dbWith(memories, (es) => es.map((e) => (e.id === idA ? { ...e, content: t.aDb } : e)));
    const r = sync(memories, (x) => x.split('\n').filter((l) => !l.includes(t.a)).join('\n'), db);
    expect(r).toEqual({ toDb: [], conflicts: [] });
  });

  it('a deletion never beats an edit: edited in the file, deleted in the db → comes back as new', () => {
    const db = dbWith(memories, (es) => es.filter((e) => e.id !== idA));
    expect(sync(memories, (x) => x.replace(t.a, t.a2), db).toDb).toEqual([{ op: 'add', kind: 'preference', content: t.a2 }]);
  });

  it('deleted on both sides, or deleted in the db and untouched in the file: nothing', () => {
    const db = dbWith(memories, (es) => es.filter((e) => e.id !== idA));
    expect(sync(memories, (x) => x, db).toDb).toEqual([]);
    expect(sync(memories, (x) => x.split('\n').filter((l) => !l.includes(t.a)).join('\n'), db).toDb).toEqual([]);
  });

  it('a lost marker keeps the memory; a pasted duplicate or a repeated memory is not added twice', () => {
    const r = sync(memories, (x) => x.replace(` <!-- engram:${idB} -->`, '') + `- ${t.c} <!-- engram:${idC} -->\n- ${t.c}\n`);
    expect(r).toEqual({ toDb: [], conflicts: [] });
  });

  it('whitespace the file cannot hold is not an edit', () => {
    const withNewline = memories.map((m, i) => (i === 1 ? { ...m, content: `${m.content}\n` } : m));
    expect(sync(withNewline, (x) => x.replace(/ +<!--/g, '   <!--'), mirrorEntries({ file: 'memory', memories: withNewline }))).toEqual({ toDb: [], conflicts: [] });
  });
});

describe('diffMirror: markers without a base, and learnings', () => {
  it('a marker unknown to base: the file wins over the db; unknown to both: added as new', () => {
    const r = diffMirror({
      base: [],
      file: [
        { id: 'm1', kind: 'preference', content: '喜欢吃豚骨拉面' },
        { id: 'm2', kind: 'fact', content: '在杭州工作' },
        { id: 'zz', kind: 'fact', content: 'Has a cat' },
      ],
      db: [
        { id: 'm1', kind: 'preference', content: '喜欢吃拉面' },
        { id: 'm2', kind: 'fact', content: '在杭州工作' },
      ],
    });
    expect(r.toDb).toEqual([
      { op: 'update', id: 'm1', kind: 'preference', content: '喜欢吃豚骨拉面' },
      { op: 'add', kind: 'fact', content: 'Has a cat' },
    ]);
  });

  it('learnings: edited steps update; conflicting steps keep the db and add the file version', () => {
    const memories: MirrorMemory[] = [{ id: 's1', kind: 'skill', content: '周报流程', structuredData: { steps: ['拉数据', '写摘要'] } }];
    const base = mirrorEntries({ file: 'learnings', memories });
    const file = parseMarkdown(renderMarkdown({ file: 'learnings', memories }).replace('2. 写摘要', '2. 写摘要\n3. 发给老板'));
    expect(diffMirror({ base, file, db: base }).toDb).toEqual([{ op: 'update', id: 's1', kind: 'skill', content: '周报流程', steps: ['拉数据', '写摘要', '发给老板'] }]);

    const db = [{ ...base[0]!, steps: ['拉数据', '写摘要', '抄送团队'] }];
    const r = diffMirror({ base, file, db });
    expect(r.toDb).toEqual([{ op: 'add', kind: 'skill', content: '周报流程', steps: ['拉数据', '写摘要', '发给老板'] }]);
    expect(r.conflicts).toEqual([{ id: 's1', file: '周报流程', db: '周报流程' }]);
  });
});
