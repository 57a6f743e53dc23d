import { describe, expect, it } from 'vitest';
import { FALLBACK_SUMMARY_MARK, withoutFallbackMark } from './episode.js';

describe('withoutFallbackMark', () => {
  it('takes the mark off a fallback summary in either language, and leaves any other text alone', () => {
    expect(withoutFallbackMark(`${FALLBACK_SUMMARY_MARK.zh} 用户说：我喜欢什么动物？（话题：动物）`)).toBe('用户说：我喜欢什么动物？（话题：动物）');
    expect(withoutFallbackMark(`${FALLBACK_SUMMARY_MARK.en} The user said: I like cats (Topics: cats)`)).toBe('The user said: I like cats (Topics: cats)');
    expect(withoutFallbackMark('用户聊了换工作的想法（话题：工作）')).toBe('用户聊了换工作的想法（话题：工作）');
    expect(withoutFallbackMark(`The user asked about ${FALLBACK_SUMMARY_MARK.en}`)).toBe(`The user asked about ${FALLBACK_SUMMARY_MARK.en}`);
  });
});
