import { describe, expect, it } from 'vitest';
import { findMonthDay } from './month-day.js';

describe('findMonthDay', () => {
  it.each([
    ['每年2月29日纪念日', { month: 2, day: 29 }],
    ['每年二月二十九号', { month: 2, day: 29 }],
    ['每年12月31日', { month: 12, day: 31 }],
    ['remind me every year on February 29 anniversary', { month: 2, day: 29 }],
    ['every year on the 29th of Feb', { month: 2, day: 29 }],
    ['annually on Dec. 31st', { month: 12, day: 31 }],
  ])('"%s" names %o', (text, expected) => {
    expect(findMonthDay(text)).toEqual(expected);
  });

  it.each(['每年2月30日', 'every year on February 30', '每年生日', 'every year', '2026年12月'])('"%s" names no day a calendar has', (text) => {
    expect(findMonthDay(text)).toBeUndefined();
  });
});
