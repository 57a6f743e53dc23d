import type { ExtractionMessage } from '../../domain/operations.js';

/**
 * Small talk is the gate in front of the LLM (seed 002: "忽略：闲聊、问候、感谢"): a batch made
 * only of greetings, thanks, acknowledgements and laughter costs no model call.
 * A message counts when every piece of it is one of these units, so "好的谢谢！" and
 * "ok thanks 👍" qualify while "谢谢，我明天去东京" does not.
 */

/** Chinese units; a Han run is small talk when it is a concatenation of them ("好的好的", "嗯嗯谢谢啦"). */
const ZH_UNITS = [
  '你好', '您好', '大家好', '哈喽', '嗨', '早上好', '早安', '早', '午安', '中午好', '下午好', '晚上好', '晚安', '再见', '拜拜', '回头见', '明天见',
  '谢谢', '多谢', '感谢', '谢啦', '谢了', '辛苦了', '辛苦', '麻烦了', '不客气', '没事', '没关系', '不用谢',
  '好的', '好滴', '好吧', '好嘞', '好哒', '好', '行', '可以', '收到', '了解', '明白', '知道了', '懂了', '是的', '对的', '对', '没错', '当然',
  '嗯', '恩', '哦', '噢', '喔', '啊', '哈', '呵', '嘿', '嘻', '哇', '呀', '啦', '了', '呢', '吧', '嘛', '哟', '诶', '唉',
  '太棒了', '真棒', '棒', '厉害', '牛', '不错', '很好', '挺好', '太好了', '有意思', '酷', '你', '您', '很', '真', '非常', '太',
];
const ZH_RUN = new RegExp(`^(?:${[...ZH_UNITS].sort((a, b) => b.length - a.length).join('|')})+$`, 'u');

/** English words that, in any combination, say nothing to remember ("thank you so much", "ok cool"). */
const EN_WORDS = new Set(
  `hi hello hey heya hiya yo there all everyone good morning afternoon evening night gn gm nite
thanks thank thx ty tysm you youre thats u so much very a lot welcome np cheers appreciate appreciated it
ok okay okey k kk sure yes yeah yea yep yup ya ye alright right fine got gotcha noted understood makes sense
i no nope problem worries cool nice great awesome perfect amazing wonderful excellent sweet neat wow oh ah oops
lol lmao rofl xd bye goodbye cya see later soon care take ttyl sounds`.split(/\s+/),
);
const EN_LAUGH = /^(?:a?(?:ha)+h?|(?:he)+h?|(?:hi){2,}|lo+l|hm+|mm+|uh+|um+|o+h+|a+h+|w+o+w+)$/;
const DIGIT_SLANG = /^(?:233+|666+|88+|520)$/;

const PICTOGRAPHS = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\u{FE0F}\u{200D}\u{20E3}]/gu;
const RUNS = /\p{Script=Han}+|[\p{L}\p{N}']+/gu;
const HAN_RUN = /^\p{Script=Han}+$/u;
/** Small talk is short; a long message is never waved through. */
const MAX_LENGTH = 40;

/** True for a greeting, thanks, acknowledgement, laughter or emoji-only message, in Chinese or English. */
export function isSmallTalk(text: string): boolean {
  // Far longer than any small talk: not normalised at all (the context build asks of every candidate turn).
  if (text.length > MAX_LENGTH * 4 && text.trim().length > MAX_LENGTH * 4) return false;
  const normal = text.normalize('NFKC').toLowerCase().trim();
  if (normal.length > MAX_LENGTH) return false;
  const runs = normal.replace(PICTOGRAPHS, ' ').match(RUNS) ?? [];
  return runs.every((run) => {
    if (HAN_RUN.test(run)) return ZH_RUN.test(run);
    const word = run.replace(/'/g, '');
    return EN_WORDS.has(word) || EN_LAUGH.test(word) || DIGIT_SLANG.test(word);
  });
}

/**
 * True when every user message of the batch is small talk; assistant and system messages do
 * not count, since only what the user says is remembered. A batch with no user message is small
 * talk too: there is nothing of the user's to extract.
 */
export function isSmallTalkBatch(messages: ReadonlyArray<Pick<ExtractionMessage, 'role' | 'content'>>): boolean {
  return messages.filter((m) => m.role === 'user').every((m) => isSmallTalk(m.content));
}
