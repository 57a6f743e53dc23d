import { describe, expect, it } from 'vitest';
import { endsOnQuestion } from './question.js';

describe('endsOnQuestion', () => {
  it.each([
    ['English question', 'Wow! Did you see that band?', true],
    ['English statement after a question', 'Really? I love it.', false],
    ['English statement', 'I play clarinet, started when I was young', false],
    ['a question followed by an unpunctuated caption', 'Caroline said, "What do you think?" and shared a photo of a dog', true],
    ['Chinese question, full-width mark', '你周末去哪儿玩了？', true],
    ['Chinese question, no mark', '你喜欢猫吗', true],
    ['Chinese statement', '我养了一只猫，叫小白。', false],
    ['Chinese statement after a question', '你知道吗？我搬家了。', false],
    ['English trailing off', "I don't know…", false],
    ['a long turn of sentences ending on a question', 'We went to the lake. It was fine. '.repeat(50) + 'Did you ever go?', true],
    ['a long Chinese turn ending on a statement', '我们去了湖边。'.repeat(50) + '你去过吗？其实我也不确定！', false],
    ['Chinese with neither mark nor particle', '我今天很开心', false],
  ])('%s', (_, text, expected) => {
    expect(endsOnQuestion(text)).toBe(expected);
  });
});
