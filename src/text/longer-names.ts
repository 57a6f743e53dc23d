import { toSimplified } from './simplified.js';

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });
const HAN = /^\p{Script=Han}$/u;

/** The longest Chinese name: a surname of two characters and a given name of two ("欧阳娜娜"). */
const LONGEST_NAME = 4;

/** The word boundaries of the Chinese segmentation of the text around [at, at + length). */
function boundsAround(text: string, at: number, length: number): Set<number> {
  const start = Math.max(0, at - 12);
  const window = text.slice(start, Math.min(text.length, at + length + 12));
  const bounds = new Set<number>();
  for (const s of segmenter.segment(window)) {
    bounds.add(start + s.index);
    bounds.add(start + s.index + s.segment.length);
  }
  return bounds;
}

/** Whether [at, at + length) starts and ends on word boundaries of the Chinese segmentation around it ("小王" is no word in "小王子"). */
export function wordAt(text: string, at: number, length: number): boolean {
  const bounds = boundsAround(text, at, length);
  return bounds.has(at) && bounds.has(at + length);
}

/**
 * Characters that stand after a name as a word of their own, so never make it a longer name:
 * particles and function words ("刘强的", "刘强也", "刘强都", "刘强在", "刘强是", "刘强和", "刘强把"),
 * pronouns, who someone is to the name ("刘强家", "刘强哥", "刘强们"), numbers and places, and the
 * common verbs, adverbs and adjectives of one character ("刘强说", "刘强买了", "刘强发的消息",
 * "刘强新买的", "刘强松了一口气"), some of which end names too ("张伟成", "王建新", "李文静": not told
 * from the shorter name).
 */
const FOLLOWS_A_NAME = new Set(
  [
    '的地得了着过们之所',
    '和跟与同及或并而但把被给让叫对向从在于为替比往朝用以由按靠离到自连将等',
    '是也都就还又才再只却便竟已正刚曾总常最很太挺真更越好不没别未必先要会能可该肯敢想愿需应当老早新',
    '他她它我你您这那哪谁啥咱俺吗呢吧啊呀哦嘛啦哈',
    '家哥姐弟妹叔姨伯爷奶婶舅嫂兄夫妻儿女子工',
    '一二两三四五六七八九十几个次年月日号岁点里上下中外前后边每些各',
    '说讲问答告喊聊谈看听见读写画唱跳跑走去来回进出起坐站住睡醒吃喝买卖送借拿带找请帮教学做干搞弄打玩开关换修洗煮烧炒穿戴有像成变放收发寄接挂约陪追骂夸笑哭怕恨爱觉知认记忘留搬租付花赚赢输病结嫁娶选考练游骑停养抱拉推扔丢生建飞乐信松秀顺飘爽保腾敬超帅静',
  ].join(''),
);

/**
 * Characters common at the end of a given name ("刘强东", "张伟华", "李秀英"), the few hundred most
 * names are made of; those that also stand after a name as a word (`FOLLOWS_A_NAME`) never count.
 */
const NAME_CHARACTERS = new Set(
  [
    '伟芳娜敏丽强磊军洋勇艳杰娟涛明霞平桂英华玉兰萍红鹏辉玲斌宇浩凯健俊帆旭宁龙林欣佳晶婷雪慧颖倩琳莉燕凤梅云莲珍贞莎锦黛青婉娴瑾露瑶怡婵雁蓓仪荷丹蓉眉君琴蕊薇菁梦岚苑婕馨瑗琰韵融园艺咏卿聪澜纯毓悦昭冰琬茗羽希育滢馥筠柔竹霭凝晓欢霄枫芸菲寒伊亚宜姬舒影荔枝思',
    '毅峰东文力永世广志义兴良海山仁波贵福元全国胜祥武利清彬富昌康星光天达安岩茂坚彪博诚震振壮群豪心邦承绍功善厚庆民友裕河哲江政谦亨奇固轮翰朗言若鸣朋梁栋维启克伦翔泽晨辰士致树炎德泰盛雄琛钧冠策楠榕风航弘鑫淼森琪璐瑞睿涵轩萱嘉铭',
  ].join(''),
);

/** What follows someone named in full: the end of a clause, or 的, 是, 说, 和… ("刘强东的自传", "叫刘强东。", "刘强东说"). */
const AFTER_A_NAME = /^(?:$|[\s\p{P}\p{S}]|[的是说和跟与也都在])/u;
/** What names someone right before their name: "用户的同事叫刘强东", "名叫刘强鑫", "名字是…". */
const NAMING = /(?:叫做?|名叫|称为|名字是)$/u;
/** The start of a text or a clause: a name there is its subject ("刘强东创办了京东"). */
const CLAUSE_START = /(?:^|[\s\p{P}])$/u;

/**
 * The longer names a Chinese name begins in these texts: the name and one character more, where some
 * text names the run as someone ("刘强东" of "刘强", from "用户在读刘强东的自传", "刘强东创办了京东",
 * "用户的同事叫刘强东。", "刘强和刘强东是两个人"). The run is a word of its own by the segmentation there
 * (not "刘强东西", and "小王子" is 小|王子), and its last character none that stands after a name as a
 * word of its own (`FOLLOWS_A_NAME`: "刘强也", "刘强都", "刘强家"). Then it is a name when the text names
 * it so ("叫刘强鑫。"), or when that character is one names end in (`NAME_CHARACTERS`) and the run is
 * a clause's subject or followed as a person is (`AFTER_A_NAME`): "刘强拍的照片" names no 刘强拍, "刘强东的
 * 自传" names 刘强东.
 */
export function longerNames(name: string, texts: readonly string[]): string[] {
  const n = name.trim();
  if (n.length === 0 || n.length >= LONGEST_NAME || ![...n].every((ch) => HAN.test(ch))) return [];
  const found = new Set<string>();
  for (const text of texts) {
    for (let at = text.indexOf(n); at !== -1; at = text.indexOf(n, at + 1)) {
      const next = text[at + n.length];
      const last = next === undefined ? '' : toSimplified(next);
      if (next === undefined || !HAN.test(next) || FOLLOWS_A_NAME.has(last)) continue;
      const run = n + next;
      if (found.has(run)) continue;
      const before = text.slice(Math.max(0, at - 4), at);
      const followed = AFTER_A_NAME.test(text.slice(at + run.length, at + run.length + 2));
      const named = NAMING.test(before) && followed;
      if (!named && !(NAME_CHARACTERS.has(last) && (followed || CLAUSE_START.test(before)))) continue;
      const bounds = boundsAround(text, at, run.length);
      if (bounds.has(at) && bounds.has(at + n.length) && bounds.has(at + run.length)) found.add(run);
    }
  }
  return [...found];
}

/**
 * Whether the mention of a name at `at` is the beginning of one of the longer names `longer`
 * (`longerNames`) as a word of its own: "刘强东说…" for 刘强 with 刘强东, not "刘强东西很多" (东西).
 */
export function continuesInto(text: string, at: number, longer: readonly string[]): boolean {
  return longer.some((run) => text.startsWith(run, at) && boundsAround(text, at, run.length).has(at + run.length));
}
