import { describe, expect, it } from 'vitest';
import { mentionsTopic } from './mentions.js';

describe('mentionsTopic', () => {
  it.each([
    ['The user broke up with their ex, Sarah', 'ex', true],
    ['The user has a dentist appointment next week', 'ex', false],
    ['Alice is the user\'s sister', 'Al', false],
    ['The user\'s friend Al lives in Boston', 'al', true],
    ['The user moved to Tacoma.', 'tacoma', true],
    ['The user likes C++ and C#', 'C#', true],
    ['用户的前女友叫小美', '前女友', true],
    ['用户的前女友叫Sarah', 'sarah', true],
    ['用户喜欢猫', '前女友', false],
    ['用户的Alice是同事', 'al', false],
  ])('%s / %s → %s', (text, topic, expected) => {
    expect(mentionsTopic(text, topic)).toBe(expected);
  });
});
