/**
 * Function words that carry no topic. Small on purpose: a stop word that carries meaning costs
 * recall. "user"/"用户"/"主人" are here because memories are written about the user in the third
 * person: in almost every memory, they say nothing and make every query touch every row.
 */
export const ENGLISH_STOPWORDS = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both but by
can could did do does doing down during each few for from further had has have having he her here hers herself him himself
his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours
ourselves out over own same she should so some such than that the their theirs them themselves then there these they this
those through to too under until up very was we were what when where which while who whom why will with would you your yours
yourself yourselves s t d ll m re ve also any anything something ever even still really yeah yes oh ok okay lol
user users`.split(/\s+/),
);

export const CHINESE_STOPWORDS = new Set(
  `的 了 是 在 和 与 及 也 都 就 又 还 而 并 但 或 吗 呢 吧 啊 呀 哦 嗯 么 么么 着 过 得 地 之 其 这 那 这个 那个 这些 那些 一个
有 没 没有 很 太 更 最 把 被 给 让 对 从 向 到 于 为 为了 以 因为 所以 如果 虽然 但是 然后 可以 可能 会 能 要 想 去 来 说 我 你 他
她 它 我们 你们 他们 她们 自己 用户 主人 什么 怎么 怎样 哪 哪里 哪个 谁 多少 几 吗 啦 嘛 呗 哈 哈哈 嘿 喔`.split(/\s+/),
);
