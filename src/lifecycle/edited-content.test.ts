import { describe, expect, it } from 'vitest';
import { structuredDataAfterEdit } from './edited-content.js';

const allergy = (content: string, value: string) => ({ content, structuredData: { extractor: 'heuristic', slot: 'allergy', value } });

describe('structuredDataAfterEdit: what a hand-edited content keeps of its structured data', () => {
  it.each([
    ['a list grew around the value (zh)', allergy('用户对花生过敏', '花生'), '用户对花生和芒果过敏'],
    ['a list grew around the value (en)', allergy('The user is allergic to peanuts', 'peanuts'), 'The user is allergic to peanuts and mangoes'],
    ['the value said once more elsewhere (zh)', allergy('用户对花生过敏', '花生'), '用户对花生过敏，也对花生酱过敏'],
    ['the value replaced (zh)', allergy('用户对花生过敏', '花生'), '用户对芒果过敏'],
    ['a value the old content did not spell (en)', allergy('The user is allergic to peanuts', 'peanut allergy'), 'The user is allergic to tree nuts'],
  ])('%s: nothing but bookkeeping is left, so nothing is kept', (_, before, content) => {
    expect(structuredDataAfterEdit(before, content)).toBeNull();
  });

  it.each([
    ['zh', { content: '用户住在北京，喜欢爬山', structuredData: { slot: 'home', value: '北京' } }, '用户住在北京，喜欢爬香山'],
    ['en', { content: 'The user lives in Berlin and likes hiking', structuredData: { slot: 'home', value: 'Berlin' } }, 'The user lives in Berlin and loves hiking'],
  ])('%s: an edit away from the value keeps everything (undefined: no change)', (_, before, content) => {
    expect(structuredDataAfterEdit(before, content)).toBeUndefined();
  });

  it('keeps data not read from one phrase (steps, numbers) and drops only the stale text fields', () => {
    const before = { content: '发布周报：拉数据 → 写摘要', structuredData: { task: '发布周报', steps: ['拉数据', '写摘要'], runs: 3 } };
    expect(structuredDataAfterEdit(before, '每周一发布周报：拉数据 → 写摘要')).toEqual({ steps: ['拉数据', '写摘要'], runs: 3 });
    expect(structuredDataAfterEdit(before, '发布周报：拉数据 → 写摘要 → 发邮件')).toBeUndefined();
  });

  it('unchanged content or no structured data: nothing to do', () => {
    expect(structuredDataAfterEdit(allergy('用户对花生过敏', '花生'), '用户对花生过敏')).toBeUndefined();
    expect(structuredDataAfterEdit({ content: 'The user likes tea' }, 'The user likes green tea')).toBeUndefined();
  });
});
