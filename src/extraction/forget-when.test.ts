import { describe, expect, it } from 'vitest';
import { readForgetRequest } from './forget-request.js';
import { saidWindow } from './forget-when.js';

describe('a request to forget what was said at a time', () => {
  it.each([
    ['forget what I told you yesterday', 'yesterday', { daysAgo: 1 }],
    ['Forget everything I said today', 'today', { daysAgo: 0 }],
    ['please delete our conversation from this morning', 'this morning', { daysAgo: 0, part: 'morning' }],
    ["delete yesterday's chat", 'yesterday', { daysAgo: 1 }],
    ["don't remember anything I said last night", 'last night', { daysAgo: 1, part: 'night' }],
    ['okay, can you forget what we talked about yesterday? thanks', 'yesterday', { daysAgo: 1 }],
    ['erase everything I told you the day before yesterday', 'the day before yesterday', { daysAgo: 2 }],
    ['忘掉我昨天说的话', '昨天', { daysAgo: 1 }],
    ['把我今天说的都忘了吧', '今天', { daysAgo: 0 }],
    ['忘掉我最近一小时说的话', '最近一小时', { daysAgo: 0, minutes: 60 }],
    ['把我过去半小时说的都删掉', '过去半小时', { daysAgo: 0, minutes: 30 }],
    ['删掉我们最近20分钟的聊天记录', '最近20分钟', { daysAgo: 0, minutes: 20 }],
    ['忘掉我过去十五分钟说的话', '过去十五分钟', { daysAgo: 0, minutes: 15 }],
    ['忘掉我过去两个小时说的话', '过去两个小时', { daysAgo: 0, minutes: 120 }],
    ['別記住我最近二十五分鐘說的話', '最近二十五分鐘', { daysAgo: 0, minutes: 25 }],
    ['删掉我们昨天的聊天记录', '昨天', { daysAgo: 1 }],
    ['昨天聊的你就忘了吧', '昨天', { daysAgo: 1 }],
    ['别记住我昨晚说的话', '昨晚', { daysAgo: 1, part: 'night' }],
    ['忘了我昨天说的话吧', '昨天', { daysAgo: 1 }],
    ['好的。另外，忘掉我今天早上说的话吧', '今天早上', { daysAgo: 0, part: 'morning' }],
    ['把我前天说的都删掉吧', '前天', { daysAgo: 2 }],
    // traditional characters, the time as written
    ['把我昨天說的話都忘了吧', '昨天', { daysAgo: 1 }],
    ['忘記我昨天說的話吧', '昨天', { daysAgo: 1 }],
    // more ways to say it (a tester's list)
    ['忘记我昨天说的话吧', '昨天', { daysAgo: 1 }],
    ['忘掉昨天我说的话', '昨天', { daysAgo: 1 }],
    ['昨天我说的话你都忘了吧', '昨天', { daysAgo: 1 }],
    ['把昨天我跟你说的都忘了吧', '昨天', { daysAgo: 1 }],
    ['忘掉我昨天说的那些话吧', '昨天', { daysAgo: 1 }],
    ['删除我昨天发的消息', '昨天', { daysAgo: 1 }],
    ['忘掉我昨天说的话😭', '昨天', { daysAgo: 1 }],
    ['Actually, forget everything I told you today', 'today', { daysAgo: 0 }],
    ['forget everything I told you yesterday 🙏', 'yesterday', { daysAgo: 1 }],
    ['forget everything I told you earlier', 'earlier', { daysAgo: 0 }],
    ['erase everything from yesterday', 'yesterday', { daysAgo: 1 }],
    ['forget everything I told you in the last hour', 'in the last hour', { daysAgo: 0, minutes: 60 }],
    ['forget what I said in the past 20 minutes', 'in the past 20 minutes', { daysAgo: 0, minutes: 20 }],
  ])('%s → what was said %s', (text, topic, when) => {
    expect(readForgetRequest(text)).toEqual({ topic, when });
  });

  it.each([
    // the user's own forgetting, a question, remembering asked about
    '忘了我昨天说的话',
    '忘记我昨天说的话',
    '我昨天说的都忘了',
    '你还记得我昨天说的话吗',
    'I forgot what I said yesterday',
    'What did I tell you yesterday?',
    'Do you remember what I said last night?',
    // a correction: the request is not what the message is about
    '忘掉我昨天说的话，我其实下周才去杭州',
    "Forget what I said yesterday, the party is on Sunday now",
  ])('%s → no request', (text) => {
    expect(readForgetRequest(text)).toBeUndefined();
  });

  it('"forget what I told you yesterday about the party" is about the party, whenever it was said', () => {
    expect(readForgetRequest('forget what I told you yesterday about the party')).toEqual({ topic: 'party' });
  });
});

describe('saidWindow: the instants a time spans in the user\'s zone, never past the request', () => {
  const at = new Date('2026-03-03T10:00:00Z');
  it.each([
    ['Asia/Shanghai', { daysAgo: 1 as const }, '2026-03-01T16:00:00.000Z', '2026-03-02T16:00:00.000Z'],
    ['America/New_York', { daysAgo: 1 as const }, '2026-03-02T05:00:00.000Z', '2026-03-03T05:00:00.000Z'],
    ['UTC', { daysAgo: 0 as const }, '2026-03-03T00:00:00.000Z', '2026-03-03T10:00:00.000Z'],
    ['UTC', { daysAgo: 0 as const, part: 'morning' as const }, '2026-03-03T00:00:00.000Z', '2026-03-03T10:00:00.000Z'],
    ['UTC', { daysAgo: 1 as const, part: 'night' as const }, '2026-03-02T18:00:00.000Z', '2026-03-03T06:00:00.000Z'],
    ['UTC', { daysAgo: 2 as const }, '2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z'],
  ])('%s %j', (timeZone, when, from, to) => {
    const w = saidWindow(when, at, timeZone);
    expect([w.from.toISOString(), w.to.toISOString()]).toEqual([from, to]);
  });

  it('where summer time starts at midnight (Havana, 8 March 2026), yesterday starts at its first instant, not at 23:00 the day before', () => {
    const w = saidWindow({ daysAgo: 1 }, new Date('2026-03-09T15:00:00Z'), 'America/Havana');
    expect(w.from.toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(w.to.toISOString()).toBe('2026-03-09T04:00:00.000Z');
  });

  it.each([
    ['UTC', '2026-03-03T01:00:00Z', '2026-03-02T18:00:00.000Z', '2026-03-03T01:00:00.000Z'],
    ['Asia/Shanghai', '2026-03-02T17:30:00Z', '2026-03-02T10:00:00.000Z', '2026-03-02T17:30:00.000Z'],
    ['UTC', '2026-03-03T21:00:00Z', '2026-03-03T18:00:00.000Z', '2026-03-03T21:00:00.000Z'],
  ])('"tonight" / "今晚" in %s at %s is the night going on (before 6 a.m., the one that began yesterday evening)', (timeZone, at, from, to) => {
    const w = saidWindow({ daysAgo: 0, part: 'night' }, new Date(at), timeZone);
    expect([w.from.toISOString(), w.to.toISOString()]).toEqual([from, to]);
  });

  it('"in the last hour" is the hour before the request, whatever the day', () => {
    const w = saidWindow({ daysAgo: 0, minutes: 60 }, new Date('2026-03-03T00:30:00Z'), 'UTC');
    expect([w.from.toISOString(), w.to.toISOString()]).toEqual(['2026-03-02T23:30:00.000Z', '2026-03-03T00:30:00.000Z']);
  });

  it('across a change to summer time (New York, 8 March 2026): yesterday is 23 hours long', () => {
    const w = saidWindow({ daysAgo: 1 }, new Date('2026-03-09T15:00:00Z'), 'America/New_York');
    expect([w.from.toISOString(), w.to.toISOString()]).toEqual(['2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z']);
  });
});
