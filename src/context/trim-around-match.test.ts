import { describe, expect, it } from 'vitest';
import { countTokens } from '../text/tokens.js';
import { trimAroundMatch, trimToTokens } from './trim-around-match.js';

const EN = [
  'We spent the whole weekend moving boxes into the new apartment and my back still hurts.',
  'The landlord was late with the keys, so we sat in the car for an hour listening to the radio.',
  'Anyway, on Sunday evening I finally finished the painting of a lighthouse at sunset for my sister.',
  'Then we ordered pizza and watched an old movie until midnight.',
].join(' ');
const ZH = [
  '这个周末我们一直在往新公寓搬箱子，到现在腰还疼。',
  '房东送钥匙迟到了，我们在车里听了一个小时的广播。',
  '不过周日晚上我终于画完了给妹妹的那幅灯塔日落油画。',
  '然后我们点了披萨，看老电影一直看到半夜。',
].join('');

describe('trimming a long turn around the sentence that matches the question', () => {
  for (const c of [
    { language: 'en', text: EN, query: 'What did I paint for my sister?', answer: 'lighthouse', head: 'moving boxes' },
    { language: 'zh', text: ZH, query: '我给妹妹画了什么油画？', answer: '灯塔', head: '搬箱子' },
  ]) {
    it(`keeps the matching sentence, not the start, within the cap (${c.language})`, () => {
      const cap = countTokens(c.text) - 25;
      const cut = trimAroundMatch(c.text, c.query, cap);
      expect(countTokens(cut)).toBeLessThanOrEqual(cap);
      expect(cut).toContain(c.answer);
      expect(cut.startsWith('…')).toBe(true);
      // Cutting from the start drops the answer at the same cap.
      const small = Math.min(cap, 30);
      expect(trimAroundMatch(c.text, c.query, small)).toContain(c.answer);
      expect(trimToTokens(c.text, small)).not.toContain(c.answer);
      expect(trimToTokens(c.text, small)).toContain(c.head);
    });

    it(`leaves text that fits alone, and cuts from the start when nothing matches (${c.language})`, () => {
      expect(trimAroundMatch(c.text, c.query, countTokens(c.text))).toBe(c.text);
      const unrelated = c.language === 'en' ? 'How many moons does Neptune have?' : '海王星有多少颗卫星？';
      expect(trimAroundMatch(c.text, unrelated, 30)).toBe(trimToTokens(c.text, 30));
    });
  }
});
