import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../deps.js';
import { watchMirror } from '../mirror/watch-mirror.js';
import { testMemory } from '../testing/test-memory.js';
import { userFolder } from './sync-mirror.js';

let engines: Array<ReturnType<typeof testMemory>> = [];
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
});
const workspaceWith = (logger?: Logger) => {
  const workspace = mkdtempSync(join(tmpdir(), 'engram-ws-'));
  const memory = testMemory({ workspace, logger });
  engines.push(memory);
  return { workspace, memory, file: (name: string) => join(userFolder(workspace, 'u'), name) };
};

describe('memory.md never loses a hand edit (issue 12.2)', () => {
  it.each([
    ['zh', '用户住在北京', '用户住在上海', '用户喜欢猫'],
    ['en', 'The user lives in Berlin', 'The user lives in Munich', 'The user likes cats'],
  ])('%s: an add() before syncMirror() merges the edit instead of overwriting it', async (_, oldText, editedText, nextText) => {
    const { memory, file } = workspaceWith();
    const city = await memory.add({ userId: 'u', content: oldText });
    writeFileSync(file('memory.md'), readFileSync(file('memory.md'), 'utf8').replace(oldText, editedText));
    await memory.add({ userId: 'u', content: nextText });
    const text = readFileSync(file('memory.md'), 'utf8');
    expect(text).toContain(editedText);
    expect(text).toContain(nextText);
    expect((await memory.get('u', city.id)).content).toBe(editedText);
    expect((await memory.history('u', city.id)).at(-1)).toMatchObject({ actor: 'file' });
    // Nothing left to sync: the edit is in the database and the file is Engram's again.
    expect(await memory.syncMirror('u')).toMatchObject({ added: 0, updated: 0, deleted: 0 });
  });

  it.each([
    ['zh', '生成周报', ['拉数据', '写摘要'], ['拉数据', '检查数字', '写摘要'], '# 经验'],
    ['en', 'Weekly report', ['pull the data', 'write the summary'], ['pull the data', 'check the numbers', 'write the summary'], '# Learnings'],
  ])('%s: editing the steps of a learning updates its content line; headings follow the user’s language', async (lang, task, steps, edited, title) => {
    const { memory, file } = workspaceWith();
    await memory.add({ userId: 'u', content: lang === 'zh' ? '用户叫李明' : "The user's name is Alice" });
    await memory.add({ userId: 'u', content: lang === 'zh' ? '用户住在上海' : 'The user lives in Munich' });
    const skill = await memory.recordLearning({ userId: 'u', task, steps: ['npm ci', 'npm run build'] });
    expect(readFileSync(file('learnings.md'), 'utf8').startsWith(`${title}\n`)).toBe(true);
    await memory.update('u', skill.id, { content: `${task}${lang === 'zh' ? '：' : ': '}${steps.join(' → ')}`, structuredData: { task, steps } });
    const text = readFileSync(file('learnings.md'), 'utf8');
    writeFileSync(file('learnings.md'), text.replace(`2. ${steps[1]}`, `2. ${edited[1]}\n3. ${edited[2]}`));
    await memory.syncMirror('u');
    const after = await memory.get('u', skill.id);
    expect(after.structuredData?.steps).toEqual(edited);
    expect(after.content).toContain(edited.join(' → '));
  });

  it.each([['zh', '用户喜欢第'], ['en', 'The user likes item ']])('%s: 50 concurrent adds all succeed and the file lists all of them (issue 14.13)', async (_, prefix) => {
    const { workspace, memory, file } = workspaceWith();
    const results = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => memory.add({ userId: 'u', content: `${prefix}${i}` })));
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    const text = readFileSync(file('memory.md'), 'utf8');
    for (let i = 0; i < 50; i++) expect(text).toContain(`${prefix}${i} <!--`);
    expect(readdirSync(userFolder(workspace, 'u')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it.each([['zh', '用户喜欢猫'], ['en', 'The user likes cats']])('%s: a failing mirror never fails the write that caused it', async (_, text) => {
    const warnings: Array<Record<string, unknown> | undefined> = [];
    const logger: Logger = { debug() {}, info() {}, error() {}, warn: (_m, data) => warnings.push(data) };
    const { memory, file } = workspaceWith(logger);
    await memory.add({ userId: 'u', content: 'first' });
    writeFileSync(file('.engram-base.json'), '{ not json');
    const m = await memory.add({ userId: 'u', content: text });
    expect((await memory.get('u', m.id)).content).toBe(text);
    expect(warnings.map((w) => w?.code)).toContain('MIRROR_FAILED');
    await expect(memory.syncMirror('u')).rejects.toMatchObject({ code: 'MIRROR_FAILED' });
  });

  it.each([
    ['zh', '用户住在北京', '用户住在上海'],
    ['en', 'The user lives in Berlin', 'The user lives in Munich'],
  ])('%s: watchMirror() syncs an edit as it is saved, and ignores Engram’s own writes', async (_, oldText, editedText) => {
    const { workspace, memory, file } = workspaceWith();
    const m = await memory.add({ userId: 'u', content: oldText });
    const synced: string[] = [];
    let done!: () => void;
    const once = new Promise<void>((resolve) => (done = resolve));
    const watcher = watchMirror({ workspace, debounceMs: 20, sync: (userId) => memory.syncMirror(userId), onSync: (userId) => { synced.push(userId); done(); } });
    try {
      await memory.add({ userId: 'u', content: 'another line' });
      writeFileSync(file('memory.md'), readFileSync(file('memory.md'), 'utf8').replace(oldText, editedText));
      await once;
      expect((await memory.get('u', m.id)).content).toBe(editedText);
      expect(synced).toEqual(['u']);
    } finally {
      await watcher.close();
    }
  });
});

describe('memory.md edits are held to the words every other door takes (zh, en)', () => {
  it.each([
    ['zh', '用户住在北京', '用户住在\u0007上海', '用户喜欢猫', 'U+0007 at character 5', '"用户住在\\u0007上海"'],
    ['en', 'The user lives in Berlin', 'The user lives in \u001bMunich', 'The user likes cats', 'U+001B at character 19', '"The user lives in \\u001BMunich"'],
  ])('%s: a line with a control character refuses the file\'s edits, naming the file, the line and the character; none of them is merged', async (_, oldText, badText, newLine, where, shown) => {
    const { memory, file } = workspaceWith();
    const city = await memory.add({ userId: 'u', content: oldText });
    writeFileSync(file('memory.md'), `${readFileSync(file('memory.md'), 'utf8').replace(oldText, badText)}\n- ${newLine}\n`);
    const error = await memory.syncMirror('u').then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_INPUT', details: { file: 'memory.md' } });
    expect((error as Error).message).toBe(`memory.md: ${shown} must not contain control characters: ${where} (tab, line feed and carriage return are kept); fix the line and save again`);
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual([oldText]);
    expect((await memory.get('u', city.id)).content).toBe(oldText);
  });
});
