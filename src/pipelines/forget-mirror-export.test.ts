import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedModel } from '../testing/scripted-model.js';
import { testMemory } from '../testing/test-memory.js';
import { userFolder } from './sync-mirror.js';
import type { UpdateProfileInput } from '../prompts/update-profile.js';

let engines: Array<ReturnType<typeof testMemory>> = [];
afterEach(async () => {
  for (const e of engines) await e.close();
  engines = [];
});
const track = <T extends ReturnType<typeof testMemory>>(e: T): T => (engines.push(e), e);

describe('forget a topic', () => {
  it('purges memories and episodes about it and rewrites the profile without it (Chinese)', async () => {
    const model = scriptedModel((_id, input) => {
      const i = input as UpdateProfileInput;
      return i.forgetTopic ? { narrative: '李明是后端工程师。', basicInfo: { name: '李明' }, changes: '忘记了一个话题' } : { narrative: '李明是后端工程师，正在考虑跳槽到字节。', basicInfo: { name: '李明' }, changes: '初版' };
    });
    const memory = track(testMemory({ model }));
    const job = await memory.add({ userId: 'u', content: '用户在考虑跳槽到字节' });
    const keep = await memory.add({ userId: 'u', kind: 'identity', content: '用户是后端工程师', importance: 0.9 });
    await memory.add({ userId: 'u', kind: 'episode', content: '用户聊了跳槽的顾虑（话题：跳槽、收入）', structuredData: { topics: ['跳槽', '收入'] } });
    await memory.updateProfile('u', { force: true });
    const report = await memory.forgetTopic('u', '跳槽');
    expect(report.forgotten).toHaveLength(2);
    expect(report.forgotten).toContain(job.id);
    await expect(memory.get('u', job.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await memory.get('u', keep.id)).status).toBe('active');
    expect((await memory.profile('u'))!.narrative).toBe('李明是后端工程师。');
    expect((await memory.profileVersions('u')).map((p) => p.narrative)).toEqual(['李明是后端工程师。']);
  });

  it('works without a model (English)', async () => {
    const memory = track(testMemory());
    await memory.add({ userId: 'u', kind: 'identity', content: "The user's name is Alice", importance: 0.9 });
    await memory.add({ userId: 'u', content: 'The user is dating Bob', importance: 0.9 });
    await memory.updateProfile('u', { force: true });
    expect((await memory.profile('u'))!.narrative).toContain('Bob');
    await memory.forgetTopic('u', 'Bob');
    expect((await memory.profile('u'))!.narrative).not.toContain('Bob');
    expect((await memory.list({ userId: 'u' })).map((m) => m.content)).toEqual(["The user's name is Alice"]);
  });
});

describe('memory.md mirror (seed 004)', () => {
  it('writes the files after every change and applies a hand edit back, with history', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'engram-ws-'));
    const memory = track(testMemory({ workspace }));
    const cat = await memory.add({ userId: 'u', kind: 'preference', content: '用户喜欢猫' });
    const city = await memory.add({ userId: 'u', kind: 'fact', content: '用户住在北京' });
    await memory.add({ userId: 'u', kind: 'preference', content: 'The user likes jazz' });
    await memory.recordLearning({ userId: 'u', task: '生成周报', steps: ['拉数据', '写摘要'] });
    const path = join(userFolder(workspace, 'u'), 'memory.md');
    let text = readFileSync(path, 'utf8');
    expect(text).toContain(`- 用户喜欢猫 <!-- engram:${cat.id} -->`);
    expect(readFileSync(join(userFolder(workspace, 'u'), 'learnings.md'), 'utf8')).toContain('1. 拉数据');
    // A person edits the file: changes a line, deletes one, adds one.
    text = text.replace('用户住在北京', '用户住在上海').replace(/- The user likes jazz.*\n/, '').replace('## 偏好\n', '## 偏好\n- 用户喜欢喝乌龙茶\n');
    writeFileSync(path, text);
    const report = await memory.syncMirror('u');
    expect(report).toMatchObject({ added: 1, updated: 1, deleted: 1, conflicts: [] });
    expect((await memory.get('u', city.id)).content).toBe('用户住在上海');
    expect((await memory.history('u', city.id)).at(-1)).toMatchObject({ actor: 'file', before: { content: '用户住在北京' }, after: { content: '用户住在上海' } });
    expect((await memory.list({ userId: 'u', kinds: ['preference'] })).map((m) => m.content).sort()).toEqual(['用户喜欢喝乌龙茶', '用户喜欢猫']);
    expect(readFileSync(path, 'utf8')).toMatch(/- 用户喜欢喝乌龙茶 <!-- engram:/);
  });
});

describe('export and import', () => {
  it('round-trips a user losslessly through JSON', async () => {
    const a = track(testMemory());
    const m = await a.add({ userId: 'u', kind: 'event', content: '用户下周去东京', happenedAt: '2026-01-08T00:00:00Z', structuredData: { city: 'Tokyo', at: '2026-01-08T00:00:00Z' } });
    await a.update('u', m.id, { content: '用户下周五去东京' });
    const gone = await a.add({ userId: 'u', content: 'to be purged' });
    await a.purge('u', gone.id);
    await a.add({ userId: 'u', content: 'The user likes tea', expiresAt: '2027-01-01T00:00:00Z' });
    await a.appendMessages({ messages: [{ id: 'x1', userId: 'u', sessionId: 's', role: 'user', content: '我叫李明' }] });
    await a.extract('u', 's');
    await a.setSettings('u', { timeZone: 'Asia/Shanghai' });
    await a.updateProfile('u', { force: true });
    const exported = JSON.parse(JSON.stringify(await a.exportUser('u')));

    const b = track(testMemory());
    expect(await b.importUser(exported)).toEqual({ userId: 'u', memories: exported.memories.length, messages: 1, rewrittenOwners: 0, reissuedIds: 0, droppedRelations: 0, droppedHistory: 0 });
    const again = JSON.parse(JSON.stringify(await b.exportUser('u')));
    expect(again).toEqual(exported);
    expect((await b.recall({ userId: 'u', query: '东京' }))[0]!.memory.id).toBe(m.id);
    await expect(b.importUser(exported)).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(b.importUser({ format: 'nope' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
