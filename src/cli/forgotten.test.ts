import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(() => (h = cliHarness()));
afterEach(() => h.cleanup());

const contents = async (user: string) => (await h.cli(['--user', user, '--json', 'list'])).json<{ memories: { content: string }[] }>().memories.map((m) => m.content);

describe('engram forgotten', () => {
  it.each([
    { lang: 'zh', told: '我喜欢猫', kept: '用户喜欢猫', request: '忘掉我喜欢猫的事' },
    { lang: 'en', told: 'I love cats', kept: 'The user loves cats', request: 'forget what I told you about cats' },
  ])('$lang: lists what a request in chat forgot, undoes it, and erases the next one now', async ({ told, kept, request }) => {
    await h.remember('u', told);
    expect(await contents('u')).toEqual([kept]);
    await h.cli(['--user', 'u', 'say', 'chat-1', 'user', request]);
    expect(await contents('u')).toEqual([]);
    const listed = await h.cli(['--user', 'u', 'forgotten']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(request);
    const [item] = (await h.cli(['--user', 'u', '--json', 'forgotten'])).json<{ items: Array<{ id: string; memories: number; messages: number }> }>().items;
    expect(item).toMatchObject({ memories: 1, messages: 2 });
    expect((await h.cli(['--user', 'v', 'forgotten', 'undo', item!.id])).stderr).toMatch(/^error \[NOT_FOUND\]/);

    const undone = await h.cli(['--user', 'u', 'forgotten', 'undo', item!.id]);

    expect([undone.code, undone.stdout]).toEqual([0, expect.stringMatching(/^Brought back what ".+" forgot for u: 1 memories, 2 messages, 0 todos\.\n$/)]);
    expect(await contents('u')).toEqual([kept]);
    await h.cli(['--user', 'u', 'say', 'chat-1', 'user', request]);
    const [next] = (await h.cli(['--user', 'u', '--json', 'forgotten'])).json<{ items: Array<{ id: string }> }>().items;
    const erased = await h.cli(['--user', 'u', '--json', 'forgotten', 'erase', next!.id]);
    expect(erased.json()).toEqual({ id: next!.id, memories: 1, messages: 3 });
    expect((await h.cli(['--user', 'u', 'forgotten'])).stdout).toBe('Nothing forgotten on request for u can be undone.\n');
    expect((await h.cli(['--user', 'u', '--json', 'list', '--status', 'deleted'])).json<{ memories: unknown[] }>().memories).toEqual([]);
  });
});
