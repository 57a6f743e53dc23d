/**
 * Whether a text speaks of a person only as he / she ("用户提到的他是程序员", "The user said she is a
 * nurse"): read apart from the message it came from, it no longer says who. "其他" and "吉他" are no
 * pronouns; English "they / their" are left out, memories use them for the user.
 */
export function speaksOfSomeoneUnnamed(text: string): boolean {
  if (/[他她](?:们)?/u.test(text.replace(/其他|吉他|其它/gu, ''))) return true;
  return /\b(?:he|she|him|her|his|hers|himself|herself)\b/iu.test(text);
}
