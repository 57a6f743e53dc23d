import { describe, expect, it } from 'vitest';
import { findTimePhrase } from '../due-time.js';
import { withPhraseDate } from './dated-phrase.js';
import { extractHeuristically } from './heuristic-extractor.js';

// Thursday 2026-11-26, 23:30 UTC: already Friday 07:30 in Shanghai.
const said = new Date('2026-11-26T23:30:00Z');
const dated = (content: string, text: string, timeZone: string, lang: 'zh' | 'en'): string => {
  const phrase = findTimePhrase({ text, reference: said, timeZone });
  if (!phrase) throw new Error(`no time phrase in ${text}`);
  return withPhraseDate(content, phrase, timeZone, lang);
};

describe('withPhraseDate: a relative time keeps the date it named when said', () => {
  it.each([
    ['zh', '用户明天下午三点开会', '明天下午三点开会', 'Asia/Shanghai', '用户明天下午三点（2026年11月28日）开会'],
    ['zh', '用户明天下午三点开会', '明天下午三点开会', 'UTC', '用户明天下午三点（2026年11月27日）开会'],
    ['zh', '用户打算下周去北京', '下周去北京', 'Asia/Shanghai', '用户打算下周（2026年11月30日那一周）去北京'],
    ['zh', '用户打算下个月搬家', '下个月搬家', 'Asia/Shanghai', '用户打算下个月（2026年12月）搬家'],
    ['zh', '用户想明年换工作', '明年换工作', 'Asia/Shanghai', '用户想明年（2027年）换工作'],
    ['zh', '用户打算2027年3月5日结婚', '2027年3月5日结婚', 'Asia/Shanghai', '用户打算2027年3月5日结婚'],
    ['en', 'The user has a meeting at 3pm tomorrow', 'Meeting at 3pm tomorrow', 'Asia/Shanghai', 'The user has a meeting at 3pm tomorrow (2026-11-28)'],
    ['en', 'The user has a meeting at 3pm tomorrow', 'Meeting at 3pm tomorrow', 'UTC', 'The user has a meeting at 3pm tomorrow (2026-11-27)'],
    ['en', 'The user plans to visit Beijing next week', 'visit Beijing next week', 'UTC', 'The user plans to visit Beijing next week (the week of 2026-11-30)'],
    ['en', 'The user plans to move to Berlin next month', 'move to Berlin next month', 'UTC', 'The user plans to move to Berlin next month (December 2026)'],
    ['en', 'The user plans to change jobs next year', 'change jobs next year', 'UTC', 'The user plans to change jobs next year (2027)'],
    ['en', 'The user is getting married on March 5, 2027', 'getting married on March 5, 2027', 'UTC', 'The user is getting married on March 5, 2027'],
  ] as const)('%s: %s (%s, %s) → %s', (lang, content, text, zone, expected) => {
    expect(dated(content, text, zone, lang)).toBe(expected);
  });

  it('puts the date before a comma the phrase ends on (Chinese and English)', () => {
    const phrase = (text: string) => ({ text, index: 0, date: new Date('2026-11-24T09:00:00Z'), named: { day: true, time: false } });
    expect(withPhraseDate("The user's son had an accident last Tuesday, he fell off his bike", phrase('last Tuesday,'), 'UTC', 'en')).toBe("The user's son had an accident last Tuesday (2026-11-24), he fell off his bike");
    expect(withPhraseDate('用户的儿子上周二，骑车摔了一跤', phrase('上周二，'), 'UTC', 'zh')).toBe('用户的儿子上周二（2026年11月24日），骑车摔了一跤');
  });

  it('leaves the text alone when the phrase is not in it as written (Chinese and English)', () => {
    expect(dated('用户要开会', '明天开会', 'UTC', 'zh')).toBe('用户要开会');
    expect(dated('The user has a meeting', 'meeting tomorrow', 'UTC', 'en')).toBe('The user has a meeting');
  });
});

describe('the heuristic extractor writes the date into what it remembers', () => {
  const adds = (content: string, timeZone: string) =>
    extractHeuristically({ messages: [{ id: 'm1', role: 'user', content, createdAt: said }], existing: [], timeZone }).operations.flatMap((o) => (o.op === 'add' ? [o] : []));

  it('dates plans, past events and todos on the user’s own calendar (Chinese)', () => {
    expect(adds('明天下午三点开会', 'Asia/Shanghai')[0]).toMatchObject({ content: '用户明天下午三点（2026年11月28日）开会', happenedAt: '2026-11-28T07:00:00.000Z' });
    expect(adds('我昨天去了医院', 'Asia/Shanghai')[0]?.content).toBe('用户昨天（2026年11月26日）去了医院');
    expect(adds('提醒我后天交报告', 'Asia/Shanghai')[0]?.content).toBe('用户有待办事项：后天（2026年11月29日）交报告');
  });

  it('dates plans, past events and todos on the user’s own calendar (English)', () => {
    expect(adds("I'm flying to Tokyo next Friday", 'UTC')[0]?.content).toBe('The user is flying to Tokyo next Friday (2026-12-04)');
    expect(adds('I visited my grandma 3 days ago', 'UTC')[0]?.content).toBe('The user visited their grandma 3 days ago (2026-11-23)');
    // Said on a Thursday: the weekend before, not the coming one.
    expect(adds('I went hiking last weekend', 'UTC')[0]).toMatchObject({ content: 'The user went hiking last weekend (2026-11-22)', happenedAt: '2026-11-22T09:00:00.000Z' });
    expect(adds('remind me to call mom tomorrow at 5pm', 'UTC')[0]?.content).toBe('The user has a to-do: call mom tomorrow at 5pm (2026-11-27)');
  });

  it('dates nothing a phrase only seems to name, nor a length of time', () => {
    for (const [text, content] of [
      ["I'm thinking of adopting a second dog", 'The user is thinking of adopting a second dog'],
      ["I'm looking forward to the day they are back to normal", 'The user is looking forward to the day they are back to normal'],
      ["I'm going to be in Japan for a few months", 'The user is going to be in Japan for a few months'],
    ]) {
      const [op] = adds(text!, 'UTC');
      expect(op).toMatchObject({ content });
      expect(op).not.toHaveProperty('happenedAt');
    }
  });

  it('labels a counted span no finer than it is said', () => {
    expect(adds("I'm moving to Paris in a few months", 'UTC')[0]?.content).toBe('The user is moving to Paris in a few months (February 2027)');
    expect(adds('I started lifting weights one year ago', 'UTC')[0]?.content).toBe('The user started lifting weights one year ago (2025)');
    expect(adds("I'm leaving the day after tomorrow", 'UTC')[0]?.content).toBe('The user is leaving the day after tomorrow (2026-11-28)');
  });
});
