import { describe, expect, it } from 'vitest';
import type { AliasedMemory, MemoryOperation } from '../../domain/operations.js';
import { extractHeuristically } from './heuristic-extractor.js';

// Friday 2026-11-27, 10:00 in Shanghai.
const createdAt = new Date('2026-11-27T02:00:00Z');
const timeZone = 'Asia/Shanghai';
const memory = (alias: string, content: string, kind: AliasedMemory['kind'] = 'person'): AliasedMemory => ({ alias, kind, content, createdAt });

function ops(content: string, existing: AliasedMemory[] = []): MemoryOperation[] {
  return extractHeuristically({ messages: [{ id: 'm1', role: 'user', content, createdAt }], existing, timeZone }).operations;
}
/** Each operation in short: "add person: …", "update M1: …", "reinforce M1". */
function brief(content: string, existing: AliasedMemory[] = []): string[] {
  return ops(content, existing).flatMap((o) => {
    if (o.op === 'add') return [`add ${o.kind}: ${o.content}`];
    if (o.op === 'update') return [`update ${o.target}: ${o.content}`];
    if (o.op === 'skip') return [];
    return [`${o.op} ${o.target}`];
  });
}

describe('a relative named, then their age: the age is theirs, by name', () => {
  it.each([
    ["Emma is my daughter, she's 12", ["add person: Emma is the user's daughter", "add person: The user's daughter Emma is 12"]],
    ['Emma is my daughter and she loves drawing', ["add person: Emma is the user's daughter", "add person: The user's daughter Emma loves drawing"]],
    // Chinese keeps the name and the age apart, as it did ("我有个儿子叫乐乐，今年五岁" in heuristic-extractor.test.ts).
    ['我女儿叫Emma，今年12岁', ['add person: 用户的女儿叫Emma', 'add person: 用户的女儿今年12岁']],
    ['Emma是我女儿，今年12岁', ['add person: 用户的女儿叫Emma', 'add person: 用户的女儿今年12岁']],
    // Someone else's, or no one named.
    ["Emma is my daughter's friend, she's 12", []],
    ["She is my daughter, she's 12", []],
    ['Emma是我女儿的朋友', []],
    ['她是我女儿，今年12岁', []],
  ] as const)('%s', (said, expected) => {
    expect(brief(said)).toEqual(expected);
  });
  it('a new age of the daughter named updates her age; naming her again is no news', () => {
    expect(brief("Emma is my daughter, she's 13", [memory('M1', "The user's daughter Emma is 12")])).toEqual(["update M1: The user's daughter Emma is 13"]);
    expect(brief('Emma is my daughter', [memory('M1', "The user's daughter Emma is 12")])).toEqual(['reinforce M1']);
  });
});

describe("someone's birthday: a fact about them, one for each person, and no reminder nobody asked for", () => {
  const mark = memory('M1', "Mark's birthday is March 3rd");
  const wang = memory('M2', '小王的生日是3月3日');
  const own = [memory('M3', "The user's birthday is May 1st", 'identity'), memory('M4', '用户的生日是5月1日', 'identity')];
  it.each([
    ["Mark's birthday is March 3rd", [], ["add person: Mark's birthday is March 3rd"]],
    ["Aunt May's birthday is on the 3rd of March", [], ["add person: Aunt May's birthday is the 3rd of March"]],
    ['小王的生日是3月3日', [], ['add person: 小王的生日是3月3日']],
    ['妈妈的生日是3月3日', [], ['add person: 用户的妈妈生日是3月3日']],
    // The user's own birthday is not theirs; the same one again reinforces; a new one replaces it.
    ["Mark's birthday is March 3rd", own, ["add person: Mark's birthday is March 3rd"]],
    ['小王的生日是3月3日', own, ['add person: 小王的生日是3月3日']],
    ["Mark's birthday is March 3rd", [mark, wang], ['reinforce M1']],
    ["Mark's birthday is March 4th", [mark, wang], ["update M1: Mark's birthday is March 4th"]],
    ['小王的生日是3月4日', [mark, wang], ['update M2: 小王的生日是3月4日']],
    // No day, no name, or no birthday.
    ["Mark's birthday is coming up", [], []],
    ["Mark's birthday party is March 3rd", [], []],
    ["Today's birthday is March 3rd", [], []],
    ['他的生日是3月3日', [], []],
  ] as const)('%s', (said, existing, expected) => {
    expect(brief(said, [...existing])).toEqual(expected);
  });
  it.each(["Mark's birthday is March 3rd", '小王的生日是3月3日'])('%s makes no todo', (said) => {
    expect(ops(said).every((o) => o.op !== 'add' || (o.kind !== 'todo' && o.todo === undefined))).toBe(true);
  });
});

describe("a doctor's limit on what the user eats: kept, and with the condition it is for", () => {
  it.each([
    ['医生让我少吃辣', ['add fact: 医生让用户少吃辣']],
    ['医生说我不能喝酒', ['add fact: 医生说用户不能喝酒']],
    ['My doctor told me to cut down on salt', ["add fact: The user's doctor told them to cut down on salt"]],
    ['the doctor said I should avoid dairy', ["add fact: The user's doctor said they should avoid dairy"]],
    ['my doctor told me not to eat sugar', ["add fact: The user's doctor told them not to eat sugar"]],
    ['我有高血压，医生让我少吃盐', ['add fact: 用户有高血压，医生让用户少吃盐']],
    ['I have high blood pressure, my doctor told me to cut down on salt', ['add fact: The user has high blood pressure, and their doctor told them to cut down on salt']],
    // Advice that limits nothing, or not the doctor's.
    ['医生让我多喝水', []],
    ['我朋友让我少吃辣', []],
    ['My doctor told me to drink more water', []],
    ['my friend told me to cut down on salt', []],
  ] as const)('%s', (said, expected) => {
    expect(brief(said)).toEqual(expected);
  });
});

describe("a relative's death: the memory about them says so, not left as if alive", () => {
  const grandpa = memory('M1', "The user's grandpa lives in Ohio");
  const yeye = memory('M1', '用户的爷爷住在山东');
  it.each([
    ['My grandpa passed away last week', [grandpa], ["update M1: The user's grandpa, who lived in Ohio, passed away last week (the week of 2026-11-16)"]],
    ['我爷爷上周去世了', [yeye], ['update M1: 用户的爷爷上周（2026年11月16日那一周）去世了，生前住在山东']],
    ['Grandpa died yesterday', [memory('M1', "The user's grandfather is a retired teacher")], ["update M1: The user's grandfather, who was a retired teacher, died yesterday (2026-11-26)"]],
    ['I lost my mom last year', [memory('M1', "The user's mom loves gardening")], ["update M1: The user's mom, who loved gardening, died last year (2025)"]],
    ['我妈去世了', [memory('M1', '用户的母亲是老师')], ['update M1: 用户的妈妈去世了，生前是老师']],
    // What cannot be put in the past plainly is kept as it was said, after the death.
    ['我外婆去年过世了', [memory('M1', '用户的姥姥今年90岁')], ['update M1: 用户的外婆去年（2025年）过世了（此前：用户的姥姥今年90岁）']],
    ['Grandma passed away', [memory('M1', "The user's grandma plans to visit in May")], ["update M1: The user's grandma passed away (before: The user's grandma plans to visit in May)"]],
    // Said again: the memory says so already.
    ['My grandpa passed away last week', [memory('M1', "The user's grandpa passed away last week")], ['reinforce M1']],
    // With no memory of them, the death is kept as an event.
    ['My grandpa passed away last week', [], ["add event: The user's grandpa passed away last week (the week of 2026-11-16)"]],
    ['我爷爷上周去世了', [], ['add event: 用户的爷爷上周（2026年11月16日那一周）去世了']],
    // Another relative, two of them, one of another name, another language: their memory stays.
    ['My grandpa passed away last week', [memory('M1', "The user's grandma lives in Ohio")], ["add event: The user's grandpa passed away last week (the week of 2026-11-16)"]],
    ['我爷爷上周去世了', [memory('M1', '用户的奶奶住在山东')], ['add event: 用户的爷爷上周（2026年11月16日那一周）去世了']],
    ['我爷爷上周去世了', [memory('M1', '用户的爷爷奶奶住在山东')], ['add event: 用户的爷爷上周（2026年11月16日那一周）去世了']],
    ['My grandpa Joe died', [memory('M1', "The user's grandpa Bill lives in Ohio")], ["add event: The user's grandpa Joe died"]],
    ['我爷爷上周去世了', [grandpa], ['add event: 用户的爷爷上周（2026年11月16日那一周）去世了']],
    // No death: passing a test, lost in a crowd, going away.
    ['my son passed his driving test', [memory('M1', "The user's son is 16")], ["add person: The user's son passed his driving test"]],
    ['I lost my sister at the mall last week', [memory('M1', "The user's sister lives in Ohio")], ['add event: The user lost their sister at the mall last week (the week of 2026-11-16)']],
    ['我爸走了', [memory('M1', '用户的爸爸住在北京')], []],
  ] as const)('%s', (said, existing, expected) => {
    expect(brief(said, [...existing])).toEqual(expected);
  });
});
