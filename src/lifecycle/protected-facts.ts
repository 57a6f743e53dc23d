import type { Memory } from '../domain/memory.js';

/**
 * Facts that time never makes less true or less important: health, safety, identity and family.
 * "Allergic to penicillin" is as vital on day 400 as on day 1, and it is rarely recalled by a
 * search (it matters exactly when nobody thinks of it), so neither decay nor seed 000's 90-day
 * rule may touch it. Kind `identity` is protected by kind; the others by what they say.
 */
export type ProtectedTopic = 'identity' | 'health' | 'safety' | 'family';

// Chinese has no word boundaries: plain substrings. English: whole words, any inflection via prefixes.
const ZH: Record<Exclude<ProtectedTopic, 'identity'>, readonly string[]> = {
  health: ['过敏', '病', '药', '血型', '手术', '怀孕', '哮喘', '糖尿', '高血压', '心脏', '癫痫', '残疾', '疫苗', '体检', '医生', '医院', '症'],
  safety: ['紧急联系', '急救', '安全', '报警', '危险', '不能吃', '不能喝', '禁忌', '忌口'],
  family: ['妈妈', '母亲', '爸爸', '父亲', '妻子', '老婆', '丈夫', '老公', '儿子', '女儿', '孩子', '哥哥', '姐姐', '弟弟', '妹妹', '爷爷', '奶奶', '外公', '外婆', '家人', '太太', '先生是', '女朋友', '男朋友', '未婚'],
};
const EN: Record<Exclude<ProtectedTopic, 'identity'>, RegExp> = {
  health: /\b(allerg\w*|anaphyla\w*|asthma\w*|diabet\w*|epilep\w*|medicat\w*|medicine\w*|prescri\w*|blood type|disease\w*|illness\w*|condition|surgery|surgeries|pregnan\w*|disabilit\w*|disabled|vaccin\w*|doctor\w*|hospital\w*|penicillin|insulin|intoleran\w*|celiac|cancer|heart)\b/i,
  safety: /\b(emergency|safety|unsafe|danger\w*|must not (?:eat|drink|take)|cannot (?:eat|drink|take)|can't (?:eat|drink|take)|never give)\b/i,
  family: /\b(mother|mom|mum|father|dad|wife|husband|spouse|son|daughter|children|child|kids?|brother|sister|sibling\w*|grandm\w*|grandf\w*|grandparent\w*|parents?|family|fianc\w*|girlfriend|boyfriend|partner)\b/i,
};

/** Which protected topic a memory is about, or undefined. Reads the content and the structured slot. */
export function protectedTopic(memory: Pick<Memory, 'kind' | 'content' | 'structuredData'>): ProtectedTopic | undefined {
  if (memory.kind === 'identity') return 'identity';
  const slot = typeof memory.structuredData?.slot === 'string' ? memory.structuredData.slot : '';
  const text = `${memory.content} ${slot}`;
  for (const topic of ['health', 'safety', 'family'] as const) {
    if (ZH[topic].some((w) => text.includes(w)) || EN[topic].test(text)) return topic;
  }
  return undefined;
}
