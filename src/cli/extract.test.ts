import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExtractReport } from '../pipelines/extract-session.js';
import type { MemoryChange } from './memory-changes.js';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(() => (h = cliHarness()));
afterEach(() => h.cleanup());

type Json = ExtractReport & { changes: MemoryChange[] };

describe('engram extract', () => {
  it('skips small talk, then remembers Chinese statements and a correction as an update', async () => {
    const li = ['--user', 'li-ming'];
    await h.cli([...li, 'say', 'chat-1', 'user', '你好']);
    await h.cli([...li, 'say', 'chat-1', 'assistant', '你好！有什么可以帮你？']);
    const smallTalk = await h.cli([...li, '--json', 'extract', 'chat-1']);
    expect(smallTalk.json<Json>()).toMatchObject({ status: 'skipped', extractor: 'small-talk', added: 0, messages: 2, changes: [] });

    await h.cli([...li, 'say', 'chat-1', 'user', '我叫李明，我住在北京']);
    const first = await h.cli([...li, 'extract', 'chat-1']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^chat-1: 1 new message · extractor heuristic · added 2\n/);
    expect(first.stdout).toContain('+ identity   用户住在北京');

    await h.cli([...li, 'say', 'chat-1', 'user', '不对，我现在住在上海']);
    const correction = (await h.cli([...li, '--json', 'extract', 'chat-1'])).json<Json>();
    expect(correction).toMatchObject({ status: 'applied', updated: 1, added: 0 });
    expect(correction.changes).toEqual([expect.objectContaining({ op: 'update', before: '用户住在北京', content: '用户住在上海' })]);

    expect((await h.cli([...li, 'extract', 'chat-1'])).stdout).toBe('chat-1: nothing (no new messages)\n');
  });

  it('remembers English statements and reinforces a repeat instead of duplicating it', async () => {
    const alice = ['--user', 'alice'];
    await h.cli([...alice, 'say', 'chat-1', 'user', "I'm allergic to peanuts"]);
    expect((await h.cli([...alice, '--json', 'extract', 'chat-1'])).json<Json>().changes).toEqual([
      expect.objectContaining({ op: 'add', kind: 'fact', content: 'The user is allergic to peanuts' }),
    ]);
    await h.cli([...alice, 'say', 'chat-2', 'user', "I'm allergic to peanuts"]);
    const repeat = await h.cli([...alice, 'extract', 'chat-2']);
    expect(repeat.stdout).toMatch(/reinforced 1/);
    expect(repeat.stdout).toContain('^ fact       The user is allergic to peanuts');
  });
});
