import { describe, expect, it } from 'vitest';
import { retimeWords, timeWords } from './retime-words.js';
import { rescheduleTodo, scheduleTodo } from './todo-schedule.js';

const TZ = 'Asia/Shanghai';
/** Friday 2026-11-27, 10:00 in Shanghai. */
const REFERENCE = new Date('2026-11-27T02:00:00Z');

/** The words of a todo made from `made`, after it was moved by `to`. */
function retimed(made: string, to: string, language: 'zh' | 'en', append?: boolean): string {
  const todo = scheduleTodo({ texts: [made], reference: REFERENCE, timeZone: TZ });
  const moved = rescheduleTodo({ todo, texts: [to], reference: REFERENCE, timeZone: TZ })!;
  return retimeWords(made, moved, { timeZone: TZ, language, reference: REFERENCE, ...(append === undefined ? {} : { append }) });
}

describe('a moved todo says its new time in its own words', () => {
  it.each([
    ['the time phrase and the date written after it', '用户有待办事项：明天下午三点（2026年11月28日）开会', '下午四点', 'zh', '用户有待办事项：2026年11月28日16:00开会'],
    ['a repeat and its time of day, as one', '用户有待办事项：每天早上八点吃药', '晚上九点', 'zh', '用户有待办事项：每天21:00吃药'],
    ['a repeat changed, the time of day read past the weekdays', '每周一和周四晚上七点去健身', '每周三', 'zh', '每周三19:00去健身'],
    ['a time phrase at the start', '明天下午三点开会', '周六上午十点', 'zh', '2026年11月28日10:00开会'],
    ['the time phrase and its date', 'The user has a to-do: call the dentist tomorrow at 3pm (2026-11-28)', 'Monday', 'en', 'The user has a to-do: call the dentist on 2026-11-30 at 15:00'],
    ['a repeat and its time of day, as one', 'The user has a to-do: join the standup every weekday at 9am', '10am', 'en', 'The user has a to-do: join the standup every weekday at 10:00'],
    ['a daily series moved', 'Take the vitamins every day at 8am', 'every day at 9pm', 'en', 'Take the vitamins every day at 21:00'],
  ] as const)('%s (%s)', (_, made, to, language, words) => {
    expect(retimed(made, to, language)).toBe(words);
  });

  it('words that name no time get the new one after them, or stay as they are when asked (zh, en)', () => {
    expect(retimed('开会', '明天下午四点', 'zh')).toBe('开会（2026年11月28日16:00）');
    expect(retimed('call the dentist', 'tomorrow at 4pm', 'en')).toBe('call the dentist (on 2026-11-28 at 16:00)');
    expect(retimed('开会', '明天下午四点', 'zh', false)).toBe('开会');
    expect(retimed('call the dentist', 'tomorrow at 4pm', 'en', false)).toBe('call the dentist');
  });

  it('a schedule with no time has no words', () => {
    expect(timeWords({}, { timeZone: TZ, language: 'zh' })).toBe('');
    expect(retimeWords('开会', {}, { timeZone: TZ, language: 'zh', reference: REFERENCE })).toBe('开会');
  });
});
