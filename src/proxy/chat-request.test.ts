import { describe, expect, it } from 'vitest';
import { ChatRequest, injectMemory, lastUserIndex, messageText, type ChatMessage } from './chat-request.js';
import { createSseReply } from './sse-reply.js';

describe('injectMemory', () => {
  const block = '## 关于用户的记忆\n- "用户喜欢猫"';

  it('appends to the first system message and moves nothing', () => {
    const messages: ChatMessage[] = [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }, { role: 'system', content: 'second' }];
    const out = injectMemory(messages, block);
    expect(out.map((m) => m.role)).toEqual(['system', 'user', 'system']);
    expect(out[0]!.content).toBe(`Be brief.\n\n${block}`);
    expect(out.slice(1)).toEqual(messages.slice(1));
    expect(messages[0]!.content).toBe('Be brief.');
  });

  it('uses a developer message, adds a text part to array content, and creates a system message when absent', () => {
    expect(injectMemory([{ role: 'developer', content: '' }, { role: 'user', content: 'x' }], block)[0]).toEqual({ role: 'developer', content: block });
    const parts = injectMemory([{ role: 'system', content: [{ type: 'text', text: 'Rules' }] }], block)[0]!.content;
    expect(parts).toEqual([{ type: 'text', text: 'Rules' }, { type: 'text', text: block }]);
    expect(injectMemory([{ role: 'user', content: 'Do I like cats?' }], block).map((m) => m.role)).toEqual(['system', 'user']);
    expect(injectMemory([{ role: 'user', content: 'x' }], '')).toEqual([{ role: 'user', content: 'x' }]);
  });
});

describe('reading a chat request', () => {
  it('finds the last user message text across string and part contents', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: [{ type: 'text', text: '东京' }, { type: 'image_url' }, { type: 'text', text: 'weather?' }] },
      { role: 'assistant', content: null, tool_calls: [] },
      { role: 'tool', content: 'sunny' },
    ];
    expect(lastUserIndex(messages)).toBe(0);
    expect(messageText(messages[0]!)).toBe('东京\nweather?');
    expect(lastUserIndex([{ role: 'system', content: 's' }])).toBe(-1);
  });

  it('keeps unknown fields and refuses what is not a chat', () => {
    const parsed = ChatRequest.parse({ model: 'm', messages: [{ role: 'user', content: 'hi', name: 'li' }], temperature: 0.2, tools: [] });
    expect(parsed).toMatchObject({ temperature: 0.2, tools: [], messages: [{ name: 'li' }] });
    expect(ChatRequest.safeParse({ messages: [] }).success).toBe(false);
    expect(ChatRequest.safeParse({ messages: [{ content: 'no role' }] }).success).toBe(false);
    expect(ChatRequest.safeParse({ messages: [{ role: 'user', content: 'x' }], user: '' }).success).toBe(false);
  });
});

describe('createSseReply', () => {
  it('assembles choice 0 from chunks split anywhere, multi-byte characters included', () => {
    const events = ['你好，', 'world', '！'].map((c) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: c } }] })}\n\n`).join('') +
      `data: ${JSON.stringify({ choices: [{ index: 1, delta: { content: 'other choice' } }] })}\r\n\r\n` + 'data: [DONE]\n\n';
    const bytes = new TextEncoder().encode(events);
    const sse = createSseReply();
    for (let i = 0; i < bytes.length; i += 7) sse.push(bytes.slice(i, i + 7));
    sse.end();
    expect(sse.text()).toBe('你好，world！');
    expect(sse.malformed()).toBe(0);
  });

  it('counts lines it cannot read and keeps going', () => {
    const sse = createSseReply();
    sse.push(new TextEncoder().encode('data: {oops\n\ndata: {"choices":[{"delta":{"content":"ok"}}]}\n\n: comment\n'));
    sse.end();
    expect(sse.text()).toBe('ok');
    expect(sse.malformed()).toBe(1);
  });
});
