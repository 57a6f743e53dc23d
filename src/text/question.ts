// Sentence-ending marks in either language (full-width ones too), and Chinese question particles
// that end a question typed without a mark ("你喜欢猫吗").
const PARTICLE_END = /[吗么][\s"'”’」』)）]*$/u;

/**
 * Whether a turn ends on a question: its last sentence-ending mark is a question mark ("Did you
 * see that band?", "Really? I love it." is not), or, with no mark at all, it ends on 吗. What
 * follows the last mark without one ("…?" and shared a photo of a dog) does not change it.
 */
export function endsOnQuestion(text: string): boolean {
  // From the end, as the message search asks it of every candidate turn: a lookahead regex
  // rescanned the rest of the text after every mark (every period of a long turn).
  for (let i = text.length - 1; i >= 0; i--) {
    switch (text.charCodeAt(i)) {
      case 0x3f: // ?
      case 0xff1f: // ？
        return true;
      case 0x2e: // .
      case 0x21: // !
      case 0x3002: // 。
      case 0xff01: // ！
      case 0x2026: // …
        return false;
    }
  }
  return PARTICLE_END.test(text.trim());
}
