import { afterEach, describe, expect, it } from 'vitest';
import { testMemory } from '../testing/test-memory.js';

/**
 * A password said in passing is kept as no memory; quoted from the conversation (an excerpt in
 * the block, a session's summary) it goes without its value: both reach the model provider.
 */
describe('a credential said in conversation is quoted without its value', () => {
  let memory: ReturnType<typeof testMemory> | undefined;
  afterEach(async () => memory?.close());

  it.each([
    ['zh', '帮我记住，我家的wifi密码是hunter2，名字叫TP-LINK-5G', '我家的wifi叫什么名字', '［已隐去］'],
    ['en', 'remember that my home wifi password is hunter2, the network is called TP-LINK-5G', 'what is my home wifi network called?', '[hidden]'],
  ])('%s: the excerpt and the summary hide it; the stored message keeps it for its owner', async (_, said, asked, mark) => {
    memory = testMemory();
    await memory.appendMessages({
      messages: [
        { id: 'm1', userId: 'u', sessionId: 's', role: 'user', content: said },
        { id: 'm2', userId: 'u', sessionId: 's', role: 'assistant', content: 'OK' },
        { id: 'm3', userId: 'u', sessionId: 's', role: 'user', content: said.startsWith('帮') ? '路由器在书房里' : 'the router is in the study' },
      ],
    });
    await memory.extract('u', 's');
    expect((await memory.list({ userId: 'u' })).some((m) => m.content.includes('hunter2'))).toBe(false);
    const block = await memory.context({ userId: 'u', query: asked, excerpts: 'auto' });
    expect(block.included.some((i) => i.type === 'excerpt' && i.messageIds?.includes('m1'))).toBe(true);
    expect(block.text).toContain('TP-LINK-5G');
    expect(block.text).toContain(mark);
    expect(block.text).not.toContain('hunter2');
    expect(await memory.summarize('u', 's')).toMatchObject({ status: 'summarized' });
    const episode = (await memory.list({ userId: 'u' })).find((m) => m.kind === 'episode');
    expect(episode?.content).toContain(mark);
    expect(episode?.content).not.toContain('hunter2');
    // The user's own message is theirs as said: only what is quoted into prompts hides it.
    expect((await memory.workingWindow('u', 's')).map((m) => m.content)[0]).toBe(said);
  });
});

describe('small talk is never an excerpt of its own', () => {
  let memory: ReturnType<typeof testMemory> | undefined;
  afterEach(async () => memory?.close());

  it.each([
    ['zh', ['哈哈哈', '嗯嗯', 'ok', '好的谢谢'], '帮我规划一下这周的安排'],
    ['en', ['lol', 'ok thanks', 'haha', 'sounds good'], 'help me plan this week'],
  ])('%s: "%s" is not quoted for "%s"', async (_, chatter, asked) => {
    memory = testMemory();
    await memory.appendMessages({ messages: chatter.map((content, i) => ({ id: `c${i}`, userId: 'u', sessionId: 'old', role: 'user' as const, content })) });
    const block = await memory.context({ userId: 'u', query: asked, excerpts: 'auto' });
    expect(block.included.filter((i) => i.type === 'excerpt')).toEqual([]);
  });
});
