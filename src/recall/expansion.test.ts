import { describe, expect, it } from 'vitest';
import { expansionTerms } from './expansion.js';
import { indexTerms } from '../text/segment.js';

describe('expansionTerms', () => {
  it('takes the terms the best English results share, not the query\'s, not one document\'s own', () => {
    const docs = [
      { text: 'Melanie painted a sunrise over the lake with watercolors', weight: 0.9 },
      { text: 'Her watercolors of the lake hang in the hallway', weight: 0.8 },
      { text: 'Melanie bought a new bike', weight: 0.1 },
    ];
    const terms = expansionTerms({ docs, queryTerms: indexTerms('What did Melanie paint?'), count: 5 });
    expect(terms).toEqual(indexTerms('lake watercolors'));
  });

  it('works on Chinese words', () => {
    const docs = [
      { text: '她在湖边画了日出，用的是水彩', weight: 0.9 },
      { text: '她的水彩画挂在走廊里，画的是湖边', weight: 0.7 },
    ];
    const terms = expansionTerms({ docs, queryTerms: indexTerms('她画了什么？'), count: 3 });
    expect(terms).toContain('水彩');
    expect(terms).toContain('湖边');
    expect(terms).not.toContain('日出');
  });
});
