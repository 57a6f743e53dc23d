import { describe, expect, it } from 'vitest';
import { createSseParser, type SseEvent } from './sse';

describe('createSseParser', () => {
  it('joins chunks split anywhere and keeps Chinese data intact', () => {
    const got: SseEvent[] = [];
    const feed = createSseParser((e) => got.push(e));
    const stream = ': ping\n\nevent: memory.created\nid: 7\ndata: {"content":"用户喜欢猫"}\n\ndata: line one\ndata: line two\n\n';
    for (let i = 0; i < stream.length; i += 5) feed(stream.slice(i, i + 5));
    expect(got).toEqual([
      { event: 'memory.created', id: '7', data: '{"content":"用户喜欢猫"}' },
      { event: 'message', id: '7', data: 'line one\nline two' },
    ]);
  });
  it('waits for the blank line before dispatching', () => {
    const got: SseEvent[] = [];
    const feed = createSseParser((e) => got.push(e));
    feed('data: Likes cats\n');
    expect(got).toHaveLength(0);
    feed('\n');
    expect(got).toEqual([{ event: 'message', data: 'Likes cats' }]);
  });
});
