import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../testing/scripted-model.js';
import { testMemory } from '../testing/test-memory.js';
import { userFolder } from './sync-mirror.js';

/** Every byte of every file under a folder, as UTF-8 text. */
function bytesUnder(folder: string): string {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((f) => join(folder, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => readFileSync(f).toString('utf8'))
    .join('\n');
}

describe('forget() leaves no bytes behind while the engine is still open (issue 14 item 3)', () => {
  it('database, -wal, -shm and the mirror folder hold no trace of the user (Chinese and English)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-raw-'));
    const path = join(dir, 'e.db');
    const workspace = join(dir, 'ws');
    const model = scriptedModel({ 'update-profile': [{ narrative: '用户写了秘密日记内容，喜欢 ZEBRAPASSWORD。', basicInfo: { name: '李明' }, changes: '初版' }] });
    const memory = testMemory({ path, workspace, model });
    const secrets = ['ZEBRAPASSWORD', '秘密日记内容', 'QUOKKA-REMINDER'];
    const m = await memory.add({ userId: 'victim', kind: 'preference', content: `The user likes ${secrets[0]}` });
    await memory.add({ userId: 'victim', content: `用户写了${secrets[1]}` });
    await memory.update('victim', m.id, { content: `The user really likes ${secrets[0]}` });
    await memory.recordLearning({ userId: 'victim', task: `${secrets[2]} workflow`, steps: ['一', 'two'] });
    await memory.appendMessages({ messages: [{ userId: 'victim', sessionId: 's', role: 'user', content: `我的密码是 ${secrets[0]}，${secrets[1]}` }] });
    await memory.updateProfile('victim', { force: true });
    await memory.add({ userId: 'other', content: 'The user likes tea' });
    const folder = userFolder(workspace, 'victim');
    expect(readFileSync(join(folder, 'memory.md'), 'utf8')).toContain(secrets[0]);
    const files = [path, `${path}-wal`, `${path}-shm`];
    expect(files.filter(existsSync).map((f) => readFileSync(f).toString('utf8')).join('')).toContain(secrets[1]);

    await memory.forget({ userId: 'victim' });

    // Still open: no close, no checkpoint at close to hide behind.
    const raw = files.filter(existsSync).map((f) => readFileSync(f).toString('utf8')).join('\n');
    for (const s of secrets) expect(raw).not.toContain(s);
    expect(existsSync(folder)).toBe(false);
    const left = existsSync(workspace) ? bytesUnder(workspace) : '';
    for (const s of secrets) expect(left).not.toContain(s);
    expect((await memory.list({ userId: 'other' })).map((x) => x.content)).toEqual(['The user likes tea']);
    await memory.close();
  });
});

/** The database file and its -wal and -shm, as text, read while the engine is open. */
function dbBytes(path: string): string {
  return [path, `${path}-wal`, `${path}-shm`].filter(existsSync).map((f) => readFileSync(f).toString('utf8')).join('\n');
}

describe('forgetTopic() and purge() leave no bytes behind while the engine is still open (issue 14 items 3 and 4)', () => {
  it.each([
    ['zh', '跳槽', '用户打算跳槽去ZEBRACORP', '我打算跳槽去ZEBRACORP，别告诉别人'],
    ['en', 'Quokka', 'The user plans to join QUOKKACORP (Quokka)', 'I plan to join QUOKKACORP at Quokka, keep it quiet'],
  ])('%s: forgetTopic() erases the topic from the database, the WAL and the mirror', async (_, topic, content, said) => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-raw-topic-'));
    const path = join(dir, 'e.db');
    const workspace = join(dir, 'ws');
    const memory = testMemory({ path, workspace });
    const secret = content.match(/[A-Z]{5,}CORP/u)![0];
    await memory.add({ userId: 'u', kind: 'plan', content, importance: 0.7 });
    await memory.appendMessages({ messages: [{ userId: 'u', sessionId: 's', role: 'user', content: said }] });
    await memory.add({ userId: 'u', content: 'The user likes tea' });
    expect(dbBytes(path)).toContain(secret);

    await memory.forgetTopic('u', topic);

    expect(dbBytes(path)).not.toContain(secret);
    expect(existsSync(workspace) ? bytesUnder(workspace) : '').not.toContain(secret);
    expect((await memory.list({ userId: 'u' })).map((x) => x.content)).toEqual(['The user likes tea']);
    await memory.close();
  });

  it.each([
    ['zh', '用户的银行卡密码是ZEBRA-PIN-7788'],
    ['en', 'The bank PIN of the user is QUOKKA-PIN-7788'],
  ])('%s: purge() erases the memory, its history and its edits from the database and the WAL', async (_, content) => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-raw-purge-'));
    const path = join(dir, 'e.db');
    const memory = testMemory({ path, workspace: join(dir, 'ws') });
    const secret = content.match(/[A-Z]+-PIN-\d+/u)![0];
    const m = await memory.add({ userId: 'u', kind: 'fact', content, importance: 0.8 });
    await memory.update('u', m.id, { content: `${content}!` });
    await memory.add({ userId: 'u', content: 'The user likes tea' });
    expect(dbBytes(path)).toContain(secret);

    await memory.purge('u', m.id);

    expect(dbBytes(path)).not.toContain(secret);
    expect(bytesUnder(join(dir, 'ws'))).not.toContain(secret);
    await memory.close();
  });
});
