import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliHarness } from './test-cli.js';

let h: ReturnType<typeof cliHarness>;
beforeEach(() => (h = cliHarness()));
afterEach(() => h.cleanup());

describe('engram chat-log / say', () => {
  it('appends a Chinese user message and says how to remember it', async () => {
    const r = await h.cli(['--user', 'li-ming', 'chat-log', 'chat-1', 'user', '我住在北京']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Appended user message \S+ to chat-1 \(#0\)\. Remember it with: engram extract chat-1\n$/);
  });

  it('joins English words, is idempotent by --id, and prints JSON', async () => {
    const args = ['--user', 'alice', '--json', 'say', 'chat-1', 'user', 'I', 'love', 'hiking', '--id', 'm-1'];
    const first = await h.cli(args);
    expect(first.json()).toMatchObject({ appended: { id: 'm-1', userId: 'alice', sessionId: 'chat-1', seq: 0, role: 'user', content: 'I love hiking' }, skipped: 0 });
    const again = await h.cli(args);
    expect(again.json()).toEqual({ appended: null, skipped: 1 });
    expect((await h.cli(['--user', 'alice', 'say', 'chat-1', 'assistant', 'Nice!'])).stdout).toMatch(/^Appended assistant message \S+ to chat-1 \(#1\)/);
  });

  it.each([
    [['say', 'chat-1', 'bot', 'hi'], /<role>: unknown value "bot"; expected one of user, assistant, system/],
    [['say', 'chat-1', 'user', '  '], /the message must not be empty/],
    [['say', 'chat-1'], /missing required argument 'role'/],
  ])('rejects %j with exit code 2', async (args, message) => {
    const r = await h.cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
});
