import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(() => (h = cliHarness()));
afterEach(() => h.cleanup());

const contents = async (user: string) => (await h.cli(['--user', user, '--json', 'list'])).json<{ memories: { content: string }[] }>().memories.map((m) => m.content);

async function remember(user: string, ...texts: string[]): Promise<void> {
  for (const text of texts) await h.cli(['--user', user, 'say', 'chat-1', 'user', text]);
  await h.cli(['--user', user, 'extract', 'chat-1']);
}

describe('engram forget', () => {
  beforeEach(async () => {
    await remember('li-ming', '我叫李明', '我住在北京', '我喜欢猫');
    await remember('alice', 'I love hiking in the Alps', "I'm allergic to peanuts");
  });

  it('without --yes is a dry run: shows what a topic would erase, erases nothing, exits 0 (issue 12.9)', async () => {
    const r = await h.cli(['--user', 'li-ming', 'forget', '--topic', '猫']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Would erase the memories and episodes about "猫" for li-ming/);
    expect(r.stdout).toContain('用户喜欢猫');
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/Nothing was erased: add --yes to forget for good\.\n$/);
    expect(await contents('li-ming')).toContain('用户喜欢猫');
    const json = await h.cli(['--user', 'alice', '--json', 'forget', '--topic', 'peanuts']);
    expect(json.code).toBe(0);
    expect(json.json()).toMatchObject({ dryRun: true, topic: 'peanuts', wouldErase: [{ content: 'The user is allergic to peanuts' }] });
  });

  it('forgets a Chinese topic and an English topic with --yes, and nothing else', async () => {
    const r = await h.cli(['--user', 'li-ming', 'forget', '--topic', '猫', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Forgot 1 memory about "猫" for li-ming/);
    expect(await contents('li-ming')).toEqual(expect.arrayContaining(['用户叫李明', '用户住在北京']));
    expect(await contents('li-ming')).not.toContain('用户喜欢猫');
    const en = (await h.cli(['--user', 'alice', '--json', 'forget', '--topic', 'peanuts', '--yes'])).json<{ forgotten: string[] }>();
    expect(en.forgotten).toHaveLength(1);
    expect(await contents('alice')).toEqual(['The user loves hiking in the Alps']);
  });

  it.each([
    ['zh', '刘强', ['用户的同事叫刘强', '刘强喜欢打篮球'], ['用户在读刘强东的自传', '刘强东创办了京东']],
    ['en', 'Sam', ["The user's coworker is named Sam", 'Sam plays basketball'], ["The user is reading Samantha Power's memoir", 'Samantha Power was a US ambassador']],
  ])('%s: --topic with a name shows and erases theirs, not those of someone whose name begins with it', async (_lang, name, theirs, others) => {
    for (const content of [...theirs, ...others]) await h.cli(['--user', 'wang', 'add', content]);
    const dry = (await h.cli(['--user', 'wang', '--json', 'forget', '--topic', name])).json<{ wouldErase: { content: string }[] }>();
    expect(dry.wouldErase.map((m) => m.content).sort()).toEqual([...theirs].sort());
    const r = await h.cli(['--user', 'wang', 'forget', '--topic', name, '--yes']);
    expect(r.stdout).toMatch(new RegExp(`^Forgot 2 memories about "${name}"`));
    expect((await contents('wang')).sort()).toEqual([...others].sort());
  });

  it('forgets everything about one user with --all --yes; the other user keeps theirs', async () => {
    const dry = await h.cli(['--user', 'li-ming', 'forget', '--all']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^Would erase everything about li-ming, for good:\nmemories\s+3\nmessages\s+3/);
    const r = await h.cli(['--user', 'li-ming', '--json', 'forget', '--all', '--yes']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ userId: 'li-ming', all: true, removed: { memories: 3, messages: 3 } });
    expect(await contents('li-ming')).toEqual([]);
    expect(await contents('alice')).toHaveLength(2);
  });

  it.each([[['forget']], [['forget', '--all', '--topic', 'x']], [['forget', '--topic', ' ']]])('refuses %j with exit code 2', async (args) => {
    const r = await h.cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error \[INVALID_INPUT\]: (forget needs exactly one|--topic must not be empty)/);
  });
});
