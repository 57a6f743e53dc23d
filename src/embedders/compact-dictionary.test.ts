import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCedict } from './cedict.js';
import { createGlosser } from './chinese-gloss.js';
import { compactDictionary } from './compact-dictionary.js';

describe('compactDictionary', () => {
  it('answers every CC-CEDICT word as the map does, and glosses sentences alike (zh, en)', () => {
    const map = loadCedict();
    const compact = compactDictionary(map);
    expect(compact.size).toBe(map.size);
    for (const [word, gloss] of map) if (compact.get(word) !== gloss) expect(compact.get(word)).toBe(gloss);
    for (const missing of ['', '用户喜', 'cat', '\uffff', '𠀀𠀀𠀀']) expect(compact.get(missing)).toBe(map.get(missing));
    const [viaMap, viaCompact] = [createGlosser(map), createGlosser(compact)];
    for (const text of ['用户喜欢猫', '我想养宠物，有什么建议？', '周末能带宠物去哪玩', 'I love cats, 尤其是橘猫', '今年第一次去日本']) expect(viaCompact(text)).toBe(viaMap(text));
  });

  it('finds exactly the words it holds, whatever they are', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(fc.string({ maxLength: 6 }), fc.string({ maxLength: 8 })), { selector: (e) => e[0], maxLength: 60 }), fc.array(fc.string({ maxLength: 6 }), { maxLength: 20 }), (entries, probes) => {
        const map = new Map(entries);
        const compact = compactDictionary(entries);
        for (const word of [...map.keys(), ...probes]) expect(compact.get(word)).toBe(map.get(word));
      }),
    );
  });
});
