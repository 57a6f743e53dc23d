import { describe, expect, it } from 'vitest';
import { topicWords } from './topics.js';

describe('topicWords', () => {
  it('gives whole Chinese words, not bigrams or question words', () => {
    const topics = topicWords(['用户什么时候跑步', '我每天早上跑步', '周末想去杭州爬山', '杭州哪里好玩'], 4);
    expect(topics).toEqual(['跑步', '杭州', '每天', '早上']);
    expect(topicWords(['你知道什么时候开会吗'], 4)).toEqual(['开会']);
  });

  it('gives English words as written, inflections counted together, no stems or stop words', () => {
    expect(topicWords(['What does the team use TypeScript for?', 'I use TypeScript at work', 'TypeScript types help the team'], 3)).toEqual(['TypeScript', 'team', 'use']);
    expect(topicWords(['I love my cats', 'the cat sleeps all day'], 2)).toEqual(['cats', 'love']);
  });

  it('mixes both languages and gives nothing for small talk', () => {
    expect(topicWords(['我在学 Japanese', '日语 and Japanese culture'], 2)).toEqual(['Japanese', '日语']);
    expect(topicWords(['好的，谢谢', 'ok thanks', '嗯嗯', 'Hello!'], 4)).toEqual([]);
  });
});
