import { describe, expect, it } from 'vitest';
import { mentionedAsTheirs, namesOfKin, whoseOf } from './whose.js';

/** Whether some mention of `topic` in `text` is theirs. */
const theirs = (text: string, topic: string, of: string, names: string[] = []): boolean => {
  const whose = whoseOf(of, names);
  for (let at = text.indexOf(topic); at !== -1; at = text.indexOf(topic, at + 1)) if (mentionedAsTheirs(text, at, topic.length, whose)) return true;
  return false;
};

describe("mentionedAsTheirs: a mention of a thing as someone's of the user's", () => {
  it.each([
    ["The user's wife's birthday is May 5", 'birthday', 'wife', []],
    ["Anna's birthday is coming up", 'birthday', 'wife', ['Anna']],
    ['The birthday of my wife is in May', 'birthday', 'wife', []],
    ["The user's wife Anna has a birthday on May 5", 'birthday', 'wife', []],
    ["The user's mom lives in Ohio", 'lives in', 'mom', []],
    ['用户老婆的生日是5月5日', '生日', '老婆', []],
    ['用户妻子的生日是5月5日', '生日', '老婆', []],
    ['用户妈妈生日在十月', '生日', '妈', []],
    ['李娜的生日快到了', '生日', '老婆', ['李娜']],
    ['用户的妈妈住在杭州', '住在', '妈妈', []],
  ])('%s: "%s" is theirs (%s)', (text, topic, of, names) => {
    expect(theirs(text, topic, of, names)).toBe(true);
  });

  it.each([
    ["The user's birthday is March 3", 'birthday', 'wife'],
    ["The user's birthday is March 3, the same day as his wife's", 'birthday', 'wife'],
    ["The user's wife's sister's birthday is in June", 'birthday', 'wife'],
    ["Sarah's birthday is next week", 'birthday', 'wife'],
    ['用户的生日是3月3日', '生日', '老婆'],
    ['用户姨妈的生日在五月', '生日', '妈'],
    ['用户老婆的妹妹的生日在六月', '生日', '老婆'],
    ['用户住在上海', '住在', '妈妈'],
  ])('%s: "%s" is not theirs (%s)', (text, topic, of) => {
    expect(theirs(text, topic, of)).toBe(false);
  });
});

describe('namesOfKin: the names memories give someone of the user\'s', () => {
  it.each([
    ["The user's wife is named Anna", 'wife', ['Anna']],
    ["The user's wife, Anna, works as a nurse", 'wife', ['Anna']],
    ["The user's wife Anna has a birthday on May 5", 'wife', ['Anna']],
    ['用户的妻子叫李娜', '老婆', ['李娜']],
    ["The user's wife is a nurse", 'wife', []],
    ['The user loves his wife', 'wife', []],
  ])('%s → %s', (text, of, names) => {
    expect(namesOfKin(of as string, [text as string])).toEqual(names);
  });
});
