import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(() => (h = cliHarness()));
afterEach(() => h.cleanup());

const contents = async (db: string, user: string) =>
  (await h.cli(['--db', db, '--user', user, '--json', 'list'])).json<{ memories: { content: string }[] }>().memories.map((m) => m.content).sort();

describe('engram export / import', () => {
  it('moves a Chinese user to another database through a file', async () => {
    await h.cli(['--user', 'li-ming', 'say', 'chat-1', 'user', '我叫李明，我喜欢猫']);
    await h.cli(['--user', 'li-ming', 'extract', 'chat-1']);
    const file = path.join(h.dir, 'li-ming.json');
    const out = await h.cli(['--user', 'li-ming', 'export', '--out', file]);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(`Exported 2 memories, 1 messages, 0 todos and 0 profile versions of li-ming to ${file}\n`);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ format: 'engram-export', userId: 'li-ming' });

    const other = path.join(h.dir, 'other.db');
    const r = await h.cli(['--db', other, 'import', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Imported 2 memories and 1 messages for li-ming\n');
    expect(await contents(other, 'li-ming')).toEqual(await contents(h.db, 'li-ming'));
    // Importing over a user who already has memories (or messages, todos, a profile) is refused.
    const again = await h.cli(['--db', other, 'import', file]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^error \[CONFLICT\]: User li-ming already has memories and messages here/);
  });

  it('prints an English export on stdout, and imports it back after forgetting', async () => {
    await h.cli(['--user', 'alice', 'add', 'The user is allergic to peanuts']);
    const exported = await h.cli(['--user', 'alice', 'export']);
    expect(exported.json()).toMatchObject({ userId: 'alice', memories: [{ content: 'The user is allergic to peanuts' }] });
    const file = path.join(h.dir, 'alice.json');
    writeFileSync(file, exported.stdout);
    await h.cli(['--user', 'alice', 'forget', '--all', '--yes']);
    expect((await h.cli(['--json', 'import', file])).json()).toEqual({ userId: 'alice', memories: 1, messages: 0, rewrittenOwners: 0, reissuedIds: 0, droppedRelations: 0, droppedHistory: 0 });
    expect(await contents(h.db, 'alice')).toEqual(['The user is allergic to peanuts']);
  });

  it('says how many history events of memories not in the file it left out (zh)', async () => {
    await h.cli(['--user', 'wang', 'add', '用户喜欢猫']);
    const exported = (await h.cli(['--user', 'wang', 'export'])).json() as { history: Array<Record<string, unknown>> };
    exported.history.push({ ...exported.history[0], id: 'h-stray', memoryId: 'not-in-file' });
    const file = path.join(h.dir, 'wang.json');
    writeFileSync(file, JSON.stringify(exported));
    const r = await h.cli(['--user', 'zhao', 'import', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1 history events of memories not in the file were left out');
    expect(await contents(h.db, 'zhao')).toEqual(['用户喜欢猫']);
  });

  it('refuses a missing file and a file that is not JSON with exit code 2', async () => {
    expect((await h.cli(['import', path.join(h.dir, 'nope.json')])).stderr).toMatch(/^error \[INVALID_INPUT\]: cannot read .*nope\.json/);
    const bad = path.join(h.dir, 'bad.json');
    writeFileSync(bad, '不是 JSON');
    const r = await h.cli(['import', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.json is not JSON/);
  });

  it('honours --user: the file becomes that user\'s memory, and the output says rows were rewritten', async () => {
    await h.cli(['--user', 'li-ming', 'add', '用户喜欢猫']);
    const file = path.join(h.dir, 'li-ming.json');
    await h.cli(['--user', 'li-ming', 'export', '--out', file]);
    const other = path.join(h.dir, 'other.db');
    const r = await h.cli(['--db', other, '--user', 'wang-fang', 'import', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Imported 1 memories and 0 messages for wang-fang\n {2}\d+ rows filed under another user were stored as wang-fang\n$/);
    expect(await contents(other, 'wang-fang')).toEqual(['用户喜欢猫']);
    expect(await contents(other, 'li-ming')).toEqual([]);
    const env = await h.cli(['--db', path.join(h.dir, 'third.db'), '--json', 'import', file], { ENGRAM_USER: 'bob' });
    expect(env.json()).toMatchObject({ userId: 'bob', memories: 1 });
  });

  it('export --out to a missing folder is a clear INVALID_INPUT, as JSON on stderr with --json (English and Chinese)', async () => {
    await h.cli(['--user', 'alice', 'add', 'The user likes tea']);
    const missing = path.join(h.dir, 'no-such-dir', 'out.json');
    const r = await h.cli(['--user', 'alice', 'export', '--out', missing]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error [INVALID_INPUT]: --out: the folder ${path.dirname(missing)} does not exist\n`);
    const j = await h.cli(['--user', '李明', '--json', 'export', '--out', path.join(h.dir, '目录不存在', 'out.json')]);
    expect(j.code).toBe(2);
    expect(j.stdout).toBe('');
    expect(JSON.parse(j.stderr)).toEqual({ error: { code: 'INVALID_INPUT', message: expect.stringContaining('目录不存在') } });
    const bad = await h.cli(['--json', '--user', '*', 'list']);
    expect(JSON.parse(bad.stderr)).toEqual({ error: { code: 'INVALID_INPUT', message: expect.stringContaining('reserved') } });
  });
});
