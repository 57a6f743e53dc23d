// Sentence-ending marks in either language (full-width ones too), and Chinese question particles
// that end a question typed without a mark ("你喜欢猫吗").
const LAST_MARK = /[.!?。！？…](?=[^.!?。！？…]*$)/u;
const PARTICLE_END = /[吗么][\s"'”’」』)）]*$/u;

/**
 * Whether a turn ends on a question: its last sentence-ending mark is a question mark ("Did you
 * see that band?", "Really? I love it." is not), or, with no mark at all, it ends on 吗. What
 * follows the last mark without one ("…?" and shared a photo of a dog) does not change it.
 */
export function endsOnQuestion(text: string): boolean {
  const mark = LAST_MARK.exec(text);
  if (mark) return mark[0] === '?' || mark[0] === '？';
  return PARTICLE_END.test(text.trim());
}
