import { describe, expect, it } from 'vitest';
import { forgetAliases } from './forget-aliases.js';

describe('forgetAliases: the words memories use for a topic asked to be forgotten', () => {
  it.each([
    ['住址', '用户住在'],
    ['地址', '我住在'],
    ['address', 'the user lives at'],
    ['手机号码', '用户的手机号'],
    ['phone number', "the user's phone number"],
    ['前任', '前女友'],
    ['allergies', 'allergic to'],
  ])('%s → includes %s', (topic, alias) => {
    expect(forgetAliases(topic)).toContain(alias);
  });

  it.each(['前女友', 'Sarah', '工作', 'old job'])('%s → none (matched as said)', (topic) => {
    expect(forgetAliases(topic)).toEqual([]);
  });

  it('never names someone else: "住在" alone is no alias (the mother\'s "用户的妈妈住在杭州" stays)', () => {
    expect(forgetAliases('住址').every((a) => /^(?:用户|我)/u.test(a))).toBe(true);
  });
});
