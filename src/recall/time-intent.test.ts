import { describe, expect, it } from 'vitest';
import { readTimeIntent } from './time-intent.js';

// Wednesday 2026-03-04 10:00 in Shanghai (02:00 UTC).
const now = new Date('2026-03-04T02:00:00Z');

describe('readTimeIntent', () => {
  it('reads Chinese day and week references in the user\'s time zone', () => {
    expect(readTimeIntent('昨天聊了什么？', now, 'Asia/Shanghai')).toEqual({
      from: new Date('2026-03-02T16:00:00Z'), to: new Date('2026-03-03T15:59:59.999Z'), latest: false, aboutConversations: true,
    });
    const week = readTimeIntent('上周我们说了什么', now, 'Asia/Shanghai');
    expect([week.from, week.to]).toEqual([new Date('2026-02-22T16:00:00Z'), new Date('2026-03-01T15:59:59.999Z')]);
    expect(readTimeIntent('上次聊了什么', now, 'Asia/Shanghai')).toEqual({ latest: true, aboutConversations: true });
  });

  it('reads English references', () => {
    expect(readTimeIntent('What did we talk about yesterday?', now, 'UTC')).toMatchObject({ from: new Date('2026-03-03T00:00:00Z'), to: new Date('2026-03-03T23:59:59.999Z'), aboutConversations: true });
    expect(readTimeIntent('what did we discuss last time', now)).toMatchObject({ latest: true, aboutConversations: true });
    expect(readTimeIntent('I like cats', now)).toEqual({ latest: false, aboutConversations: false });
  });
});
