import { toSimplified } from './simplified.js';

/**
 * Someone of the user's and the words memories and messages use for them: "forget my wife's
 * birthday" is said with "wife", and "The user's wife's birthday", "用户老婆的生日" and "用户妻子的生日"
 * are all hers. A Chinese word of one character (妈, 爸) counts only where it is not part of another
 * kin word (姨妈, 公公).
 */
const KIN: ReadonlyArray<{ said: readonly string[]; words: readonly string[] }> = [
  { said: ['wife', '妻子', '老婆', '太太', '爱人', '媳妇', '夫人'], words: ['wife', '妻子', '老婆', '太太', '爱人', '媳妇', '夫人'] },
  { said: ['husband', '丈夫', '老公'], words: ['husband', '丈夫', '老公'] },
  { said: ['mom', 'mum', 'mother', 'mommy', 'mama', '妈妈', '妈', '母亲', '老妈'], words: ['mom', 'mum', 'mother', 'mommy', 'mama', '妈妈', '母亲', '老妈', '(?<![姨姑舅婆干后继岳丈])妈'] },
  { said: ['dad', 'father', 'daddy', 'papa', '爸爸', '爸', '父亲', '老爸'], words: ['dad', 'father', 'daddy', 'papa', '爸爸', '父亲', '老爸', '(?<![公干后继岳])爸'] },
  { said: ['son', '儿子'], words: ['son', '儿子'] },
  { said: ['daughter', '女儿'], words: ['daughter', '女儿'] },
  { said: ['sister'], words: ['sister', '姐姐', '妹妹'] },
  { said: ['姐姐', '姐'], words: ['姐姐', 'sister', '(?<![小表堂大二三师学])姐(?!夫)'] },
  { said: ['妹妹', '妹'], words: ['妹妹', 'sister', '(?<![小表堂学师])妹(?!夫)'] },
  { said: ['brother'], words: ['brother', '哥哥', '弟弟'] },
  { said: ['哥哥', '哥'], words: ['哥哥', 'brother', '(?<![大表堂师帅])哥'] },
  { said: ['弟弟', '弟'], words: ['弟弟', 'brother', '(?<![表堂师徒小])弟'] },
  { said: ['girlfriend', '女朋友', '女友'], words: ['girlfriend', '女朋友', '(?<!前)女友'] },
  { said: ['boyfriend', '男朋友', '男友'], words: ['boyfriend', '男朋友', '(?<!前)男友'] },
  { said: ['partner'], words: ['partner'] },
  { said: ['fiancé', 'fiancée', 'fiance', 'fiancee', '未婚妻', '未婚夫'], words: ['fianc[ée]e?', '未婚妻', '未婚夫'] },
  { said: ['boss', '老板', '领导', '上司'], words: ['boss', '老板', '领导', '上司'] },
  { said: ['grandma', 'grandmother', 'granny', '奶奶', '外婆', '姥姥'], words: ['grandma', 'grandmother', 'granny', '奶奶', '外婆', '姥姥'] },
  { said: ['grandpa', 'grandfather', '爷爷', '外公', '姥爷'], words: ['grandpa', 'grandfather', '爷爷', '外公', '姥爷'] },
  { said: ['ex', 'ex-wife', 'ex-husband', 'ex-girlfriend', 'ex-boyfriend', '前任', '前女友', '前男友', '前妻', '前夫'], words: ['ex(?!-?(?:colleague|boss|coworker|co-worker|employer|manager)\\b)', 'ex-(?:wife|husband|girlfriend|boyfriend|partner)', '前任(?![老经领上同主总])', '前女友', '前男友', '前妻', '前夫'] },
];

/** Who the user said ("wife", "老婆", "my mom" → "mom"), as one of the kin `KIN` knows, or undefined. */
export function kinSaid(word: string): string | undefined {
  const w = toSimplified(word.trim().toLowerCase());
  return KIN.some((k) => k.said.includes(w)) ? w : undefined;
}

/** The words memories may use for someone the user said ("wife": wife, 妻子, 老婆…), as regex sources. */
function kinWords(said: string): readonly string[] {
  const w = toSimplified(said.trim().toLowerCase());
  return KIN.find((k) => k.said.includes(w))?.words ?? [said.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')];
}

/** Every kin word `KIN` knows, as one regex source: who else a clause may be about. */
const ANY_KIN = KIN.flatMap((k) => k.words);

/** How someone is written: their kin words and the names memories give them ("Anna", "李娜"). */
export interface Whose {
  /** A regex source matching any of the words or names, as whole words in spaced scripts. */
  source: string;
}

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
const spaced = (source: string): string => (/^[\p{Script=Latin}(\\]/u.test(source) && !/^\(\?<!/u.test(source) ? `(?<![\\p{L}\\p{N}])(?:${source})(?![\\p{L}\\p{N}])` : `(?:${source})`);

/** Someone by the words for them (`kinWords`) and their names, as written. */
export function whoseOf(said: string, names: readonly string[] = []): Whose {
  return { source: [...kinWords(said), ...names.map(esc)].map(spaced).join('|') };
}

const ANY_PERSON = ANY_KIN.map(spaced).join('|');
/** The user's own, right before a mention: "my birthday", "the user's birthday", "用户的生日", "我的生日". */
const OWN_BEFORE = /(?:\b(?:my|user['’]s|your)\s+|用户的?|我的|你的)$/iu;

/**
 * Whether the mention of `length` characters at `at` is theirs: "wife's birthday", "Anna's upcoming
 * birthday", "the birthday of my wife", "用户老婆的生日", "用户妈妈生日", "李娜的生日", or said in a
 * clause about them with nothing making it the user's own ("The user's wife Anna has a birthday on
 * May 5", "用户的妈妈住在杭州"): the last person named before it in the clause is them.
 */
export function mentionedAsTheirs(text: string, at: number, length: number, whose: Whose): boolean {
  const before = toSimplified(text.slice(Math.max(0, at - 40), at));
  const after = text.slice(at + length, at + length + 40);
  if (new RegExp(`(?:${whose.source})['’]s?\\s+(?:\\p{L}+\\s+)?$|(?:${whose.source})的?$`, 'iu').test(before)) return true;
  if (new RegExp(`^\\s+of\\s+(?:my|the user['’]s|his|her|their)\\s+(?:${whose.source})`, 'iu').test(after)) return true;
  const clause = before.split(/[.!?。！？；;]/u).at(-1) ?? '';
  if (OWN_BEFORE.test(clause)) return false;
  // Someone else's ("wife's sister's birthday"): the last one named decides.
  const people = [...clause.matchAll(new RegExp(`${ANY_PERSON}|${whose.source}`, 'giu'))];
  const last = people.at(-1);
  return last !== undefined && new RegExp(`^(?:${whose.source})$`, 'iu').test(last[0]);
}

/**
 * The names memories give someone of the user's: "The user's wife is named Anna", "The user's
 * wife, Anna, …", "The user's wife Anna has…", "用户的妻子叫李娜".
 */
export function namesOfKin(said: string, contents: readonly string[]): string[] {
  const words = kinWords(said).map(spaced).join('|');
  const patterns = [
    new RegExp(`(?:${words})(?:的名字)?(?:叫做?|名叫)([\\p{Script=Han}]{2,3}?)(?=[，。,、；;\\s]|$|[是在和也今去喜的])`, 'u'),
    new RegExp(`(?:${words})(?:,\\s+|\\s+(?:is\\s+)?(?:named|called)\\s+|\\s+)(\\p{Lu}\\p{Ll}+)\\b`, 'u'),
  ];
  const names = new Set<string>();
  for (const content of contents) {
    for (const re of patterns) {
      const name = re.exec(content)?.[1];
      if (name && !/^(?:The|User|They|He|She|Is|Was|Has|Had|And|But|用户)$/u.test(name)) names.add(name);
    }
  }
  return [...names];
}
