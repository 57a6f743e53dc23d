const HAN = /\p{Script=Han}/u;
const HAN_G = /\p{Script=Han}/gu;
const LATIN_G = /\p{Script=Latin}/gu;

export type Language = 'zh' | 'en';

/** Detects the dominant language of a text: Chinese when Han characters outweigh Latin letters / 3. */
export function detectLanguage(text: string): Language {
  const han = text.match(HAN_G)?.length ?? 0;
  if (han === 0) return 'en';
  const latin = text.match(LATIN_G)?.length ?? 0;
  // An English word is ~5 letters, a Chinese word ~1.5 characters: weigh accordingly.
  return han * 3 >= latin ? 'zh' : 'en';
}

export function hasHan(text: string): boolean {
  return HAN.test(text);
}
