import { describe, expect, it } from 'vitest';
import { extractHeuristically } from './heuristic-extractor.js';

const createdAt = new Date('2026-11-27T02:00:00Z');

/** The memories added, as "kind: content". */
function added(content: string): string[] {
  const { operations } = extractHeuristically({ messages: [{ id: 'm1', role: 'user', content, createdAt }], existing: [], timeZone: 'Asia/Shanghai' });
  return operations.flatMap((o) => (o.op === 'add' ? [`${o.kind}: ${o.content}`] : []));
}

describe('common typos do not break the most frequent statements', () => {
  it.each([
    // Contractions without their apostrophe (casual-en.ts).
    ['im allergic to peanuts', ['fact: The user is allergic to peanuts']],
    ['i dont eat pork', ["preference: The user doesn't eat pork"]],
    ['ive been diagnosed with diabetes', ['fact: The user has been diagnosed with diabetes']],
    // "I'm" typed broken: a key over, or with "am" spelled out after the apostrophe.
    ['I;m allergic to peanuts', ['fact: The user is allergic to peanuts']],
    ["I'am a teacher", ['identity: The user is a teacher']],
    // The words the rows key on, misspelled.
    ["i'm alergic to peanuts", ['fact: The user is allergic to peanuts']],
    ['my fave food is sushi', ["preference: The user's favorite food is sushi"]],
    ['my favorit movie is Up', ["preference: The user's favorite movie is Up"]],
    ['my bday is May 3rd', ["identity: The user's birthday is May 3rd"]],
    // Chinese: spaces typed between characters; 再 for 在 after 住.
    ['我 住在 上海', ['identity: 用户住在上海']],
    ['我对花生 过敏', ['fact: 用户对花生过敏']],
    ['我住再上海', ['identity: 用户住在上海']],
    // A space before "我" parts two statements.
    ['我喜欢吃火锅 我老公不能吃辣', ['preference: 用户喜欢吃火锅', 'person: 用户的老公不能吃辣']],
  ] as const)('%s', (said, expected) => {
    expect(added(said)).toEqual(expected);
  });

  it.each([
    // The user's own word for a thing is kept as they spelled it: no list knows it better.
    ['my favorite food is suhsi', ["preference: The user's favorite food is suhsi"]],
    ['我喜欢吃火过', ['preference: 用户喜欢吃火过']],
    // 再 that means "again" or "longer" stays.
    ['我想住再久一点', []],
    // A misspelling mended is still a joke.
    ["i'm alergic to mornings lol", []],
  ] as const)('%s', (said, expected) => {
    expect(added(said)).toEqual(expected);
  });
});
