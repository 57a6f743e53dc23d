import { describe, expect, it } from 'vitest';
import { detectLang, fieldName, kindName, translator } from './i18n';
import { en, FIELD_NAMES, KIND_NAMES, zh } from './messages';

const vars = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('interface strings', () => {
  it('has every English key in Chinese, with the same placeholders and no empty text', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    for (const [k, v] of Object.entries(en)) {
      const z = zh[k as keyof typeof en];
      expect(z.trim(), k).not.toBe('');
      expect(vars(z), k).toEqual(vars(v));
    }
  });

  it('fills placeholders in both languages', () => {
    expect(translator('en')('selectedCount', { n: 3 })).toBe('3 selected');
    expect(translator('zh')('selectedCount', { n: 3 })).toBe('已选 3 条');
    expect(translator('zh')('playTokens', { n: 90 })).toBe('90 个 token');
  });

  it('follows the saved choice, else the browser: any zh-* is Chinese, anything else English', () => {
    expect(detectLang(null, ['zh-TW', 'en'])).toBe('zh');
    expect(detectLang(null, ['en-GB', 'zh-CN'])).toBe('en');
    expect(detectLang(null, ['fr-FR', 'zh-CN'])).toBe('zh');
    expect(detectLang(null, ['fr-FR'])).toBe('en');
    expect(detectLang('en', ['zh-CN'])).toBe('en');
    expect(detectLang('xx', ['zh-CN'])).toBe('zh');
  });

  it('names kinds and history actions in the interface language, unknown ones as they are', () => {
    expect(kindName('zh', 'preference')).toBe('偏好');
    expect(kindName('en', 'update')).toBe('updated');
    expect(kindName('zh', 'something-new')).toBe('something-new');
  });

  it('names the values and fields the server sends in both languages, the same ones in each', () => {
    expect(Object.keys(KIND_NAMES.zh).sort()).toEqual(Object.keys(KIND_NAMES.en).sort());
    expect(Object.keys(FIELD_NAMES.zh).sort()).toEqual(Object.keys(FIELD_NAMES.en).sort());
    expect(kindName('zh', 'extraction')).toBe('提取');
    expect(kindName('zh', 'assistant')).toBe('助手');
    expect(kindName('zh', 'supports')).toBe('支持');
    expect(fieldName('zh', 'occupation')).toBe('职业');
    expect(fieldName('en', 'structuredData')).toBe('structured data');
    expect(fieldName('zh', 'favouriteColour')).toBe('favouriteColour');
  });
});
