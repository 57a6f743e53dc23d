/**
 * Whether a message asks the assistant for suggestions the user's own tastes should shape: "Any
 * weekend ideas for me?", "Suggest a gift for my sister", "What should I cook tonight?", "给我推荐
 * 一个礼物", "周末有什么建议吗？", "我该看什么电影". Such a request is about what the user likes
 * even when it names none of it, so the context block lets the user's preferences in below the
 * relevance a fact needs (context/rank-evidence.ts `suggestionFloor`).
 *
 * Asked about the past it is recall, not a request: "What did you recommend last time?", "Did
 * John suggest a book?", "你推荐过哪本书？".
 */
export function asksForSuggestions(text: string): boolean {
  const t = text.trim();
  if (t === '') return false;
  if (PAST_EN.test(t) || PAST_ZH.test(t)) return false;
  if (EN_OPENING.test(t)) return true;
  // Otherwise said to the assistant by the user: "What does Joanna recommend…?" and "What was
  // grandma's gift to Caroline?" are recall about others (LoCoMo asks 31 such questions).
  if (EN.some((p) => p.test(t))) return PERSON_EN.test(t);
  return !THIRD_PERSON_ZH.test(t) && ZH.some((p) => p.test(t));
}

/** Recall of a suggestion once made: "did you recommend", "what I suggested", "推荐过", "建议了". */
const PAST_EN = /\b(?:did|have|has|had)\s+(?:you|i|we|he|she|they|\w+)\s+(?:ever\s+)?(?:recommend|suggest)|\b(?:recommended|suggested)\b/i;
const PAST_ZH = /(?:推荐|建议)(?:过|了)|上次.{0,6}(?:推荐|建议)/u;

/** A request from its first words: "Suggest a gift…", "Recommend me…", "Help me plan…", "Any ideas for tonight?". */
const EN_OPENING = /^(?:please\s+)?(?:(?:recommend|suggest|plan)\b|help\s+me\b|any\s+(?:\w+\s+){0,2}(?:ideas|suggestions|recommendations|tips|advice)\b)/i;
/** The user or the assistant in the sentence: what makes a request of a question. */
const PERSON_EN = /\b(?:i|me|my|we|us|our|you|your)\b/i;
/** Someone else as the subject: "他推荐了…", "她有什么建议". */
const THIRD_PERSON_ZH = /[他她它]们?/u;

const EN: readonly RegExp[] = [
  // "Can you recommend a book?", "recommend me something", "any suggestions?"
  /\b(?:recommend|suggest)(?:ations?|ions?)?\b/i,
  /\bany\s+(?:\w+\s+){0,2}(?:ideas|tips|advice)\b/i,
  /\bideas?\s+for\b/i,
  // "What should I cook tonight?", "Where could we go this weekend?"
  /\b(?:what|where|which|how)\s+(?:should|could|can|shall)\s+(?:i|we)\b/i,
  /\bwhat\s+to\s+(?:do|eat|cook|make|watch|read|buy|get|wear|play|listen)\b/i,
  /\bhelp\s+me\s+(?:choose|pick|decide|plan|find)\b/i,
  /\bplan\s+(?:a|an|my|our|some)\b/i,
  /\b(?:gift|present)\s+(?:for|to)\b/i,
];

const ZH: readonly RegExp[] = [
  // "给我推荐一个礼物", "有什么建议", "出个主意"
  /推荐|建议|主意|点子/u,
  // "我该看什么电影", "我们可以去哪儿"
  /(?:我|我们)(?:(?:该|应该|可以|能)(?:做|吃|买|看|去|送|穿|玩|听|读|学)?|(?:做|吃|买|看|去|送|穿|玩|听|读|学))(?:点)?(?:什么(?!时候)|啥|哪)/u,
  /(?:做|吃|买|看|送|穿|玩|听|读)(?:点)?(?:什么|啥)(?:好|呢)/u,
  /去哪(?:儿|里)?(?:玩|好|呢)/u,
  /帮我(?:选|挑|安排|规划|计划|想想?|找)/u,
  /送.{0,6}(?:什么|啥)/u,
];
