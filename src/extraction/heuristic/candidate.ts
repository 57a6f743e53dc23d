import { findTimePhrase } from '../due-time.js';
import { findRecurrence } from '../recurrence-phrase.js';
import { findReminderLead } from '../reminder-lead.js';
import type { MemoryKind } from '../../domain/memory.js';

/**
 * What a statement is about. Single-valued slots hold one value at a time, so a new value
 * replaces the memory holding the old one; the others accumulate.
 */
export type Slot =
  | 'name'
  | 'job'
  | 'employer'
  | 'home'
  | 'origin'
  | 'family'
  // A relative's age ("我女儿今年七岁", "my daughter Lily is 7"): one value for each relative, so a new one updates the old.
  | 'kinAge'
  // Someone's birthday ("小王的生日是3月3日", "Mark's birthday is March 3rd"): one value for each person, which a new one replaces. No reminder is made of it.
  | 'personBirthday'
  | 'pet'
  | 'allergy'
  | 'birthday'
  | 'age'
  | 'bloodType'
  | 'height'
  | 'diet'
  // "以后用中文回答我", "Please always answer me in English": the language the user wants replies in.
  | 'replyLanguage'
  | 'like'
  // "我最喜欢的电影是《奥本海默》", "my favorite movie is Oppenheimer": one value for each kind of thing, which a new one replaces.
  | 'favorite'
  | 'dislike'
  | 'no-longer-like'
  | 'no-longer'
  | 'plan'
  | 'todo'
  // "不用再提醒我吃药了", "明天的会取消了", "cancel the rent reminder": ends the todo that holds the task (never a memory of its own).
  | 'stop-reminder'
  // "明天的会改到下午四点": moves the todo that holds the task (never a memory of its own).
  | 'move-todo'
  // "房租交了", "I've paid the rent": completes the todo that holds the task (the clause is read for a memory too).
  | 'todo-done'
  // "我的猫咪咪上周去世了", "Biscuit passed away last week": a death; the pet's memory is retired (updated to say so).
  | 'loss'
  // "我辞职了", "I quit my job", "I'm retired", "我换工作了": the job a memory holds is over (updated to say so, the old one kept in it).
  | 'job-end'
  // Self-disclosure (patterns-*-disclosure.ts): these accumulate.
  | 'activity'
  | 'goal'
  | 'habit'
  | 'health'
  | 'study'
  | 'possession'
  | 'relation'
  | 'trait'
  // The seeds' own examples (patterns-seeds.ts):
  | 'project'
  // What the user asked outright to be remembered and no other row reads (remembered.ts): these accumulate.
  | 'noted';

export const SINGLE_VALUED_SLOTS: ReadonlySet<Slot> = new Set<Slot>(['name', 'job', 'employer', 'home', 'origin', 'diet', 'birthday', 'age', 'bloodType', 'height', 'replyLanguage']);

export type Lang = 'zh' | 'en';

/** The words a pattern pulled out of one clause. */
export interface Statement {
  /** The memory, one self-contained third-person sentence in the user's language. */
  content: string;
  /** The slot's value (the name, the city, the liked thing), compared to spot repeats and changes. */
  value: string;
  /** For todos: the task in the user's own words, time phrase still in it. */
  task?: string;
  /** Plans and todos need a time phrase unless the verb itself commits ("决定", "plan to"). */
  needsTime?: boolean;
  /** Something the user did: it happened when said, or at the past time phrase in the clause. */
  past?: boolean;
  /** A todo moved: its new time as said ("下午四点", "every weekday at 10am"). */
  moveTo?: string;
  /** A todo's reminder moved: how far ahead it comes now, as said ("提前一天", "30 minutes before"). */
  remindText?: string;
  /** A todo done: the verb said ("交", "pay"), which the todo's words must hold too (wrote the report is not handed it in). */
  doneVerb?: string;
  /** A todo named loosely ("I called grandma", with no "already"): every word said must be the todo's. */
  wholeTask?: boolean;
  /** For a job said with its workplace ("我在字节跳动做前端"): the workplace, which a later employer replaces. */
  employer?: string;
  /** A job or workplace said as new ("I got a new job at Costco", "我跳槽到腾讯了"): it replaces a job memory of either slot. */
  jobChange?: boolean;
  /** For a death: the pet's kind or the relative as said ("猫", "dog", "外婆"), and the name, if said. */
  lost?: { pet: boolean; kind?: string; name?: string; /** How much of the content names who died ("用户的猫咪咪", "Biscuit"). */ subject: number };
  /** For a relative's fact: who it is about, as relation and name ("daughter", "Lily"), to find the memory of the same person. */
  who?: readonly string[];
  /** A doctor's limit ("医生让我少吃盐"): said after a condition ("我有高血压"), it is that condition's, and joins its memory. */
  limit?: boolean;
  /** Said of the world, not asked of Engram ("我的航班取消了", "Lily is 8"): with no todo or memory to act on, it goes unremarked. */
  quiet?: boolean;
}

/** Words that name a time or a repeat ("下午四点", "每周三", "Monday at 10am"): what a todo can be moved to. */
/** What a todo moved "to" says: a new time, or only how far ahead its reminder comes ("提醒改成提前一天"). */
export function moveTarget(said: string): { moveTo: string } | { remindText: string } | undefined {
  // "10 minutes before" reads as a time too (ten minutes ago): a lead that is all the words said is the reminder's.
  const lead = findReminderLead(said, { alone: true });
  if (lead && said.replace(lead.text, '').replace(/[\s，,.!！。吧啊哦]+/gu, '') === '') return { remindText: said };
  return namesTime(said) ? { moveTo: said } : undefined;
}

export function namesTime(text: string): boolean {
  return findRecurrence(text) !== undefined || findTimePhrase({ text, reference: new Date(0), timeZone: 'UTC' }) !== undefined;
}

/** One row of a pattern table: a regex over one clause and how to word what it matched. */
export interface Pattern {
  slot: Slot;
  kind: MemoryKind;
  importance: number;
  re: RegExp;
  build: (m: RegExpExecArray) => Statement | undefined;
}

/** A statement found in a user message, before it is compared with existing memories. */
export interface Candidate extends Statement {
  slot: Slot;
  kind: MemoryKind;
  importance: number;
  lang: Lang;
  messageId: string;
  /** Said as a correction ("不对，…", "actually, …"). */
  correction: boolean;
  todo?: { content: string; dueText?: string; dueAt?: string; remindText?: string };
  happenedAt?: string;
  /** What the clause said besides an action on a todo ("I already took my pills" is also something done): dropped when the action finds its todo. */
  besides?: Candidate;
}

/** Lowercased letters and digits only, with a plural "s" dropped: "Cats!" and "cat" compare equal. */
export function normalize(text: string): string {
  const flat = text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  return /^[a-z]{3,}s$/.test(flat) ? flat.slice(0, -1) : flat;
}

/** The user's relative in the tail of a sentence: "我妈", "我的女儿". */
let relOfUser: RegExp | undefined;

/**
 * First person to third in the tail of a sentence: "my mom" → "their mom"; in Chinese a relative
 * is named as in the memory's other sentences ("给我妈打电话" → "给妈妈打电话", not "自己妈"), and any
 * other "我" is "自己".
 */
export function thirdPerson(text: string, lang: Lang): string {
  if (lang === 'zh') {
    relOfUser ??= new RegExp(`我的?${REL_ZH}`, 'gu');
    return text.replace(relOfUser, (_all, relation: string) => kin(relation)).replace(/我(?!们)/g, '自己');
  }
  return text
    .replace(/\bmyself\b/gi, 'themselves')
    .replace(/\bmine\b/gi, 'theirs')
    .replace(/\bmy\b/gi, 'their')
    .replace(/\bme\b/gi, 'them')
    .replace(/\bI'm\b/g, "they're")
    .replace(/\bI\b/g, 'they');
}

const THIRD_SINGULAR: Readonly<Record<string, string>> = { have: 'has', do: 'does', go: 'goes', am: 'is', be: 'is' };

/** "go running" → "goes running", "write the report" → "writes the report": the first verb in the third person singular. */
export function thirdSingular(phrase: string): string {
  return phrase.replace(/^(\w+)/, (v) => THIRD_SINGULAR[v.toLowerCase()] ?? (/(?:s|sh|ch|x|z|o)$/i.test(v) ? `${v}es` : /[^aeiou]y$/i.test(v) ? `${v.slice(0, -1)}ies` : `${v}s`));
}

/** How a memory names the user's kin: "妈" and "爸" as written in full ("用户的妈妈"), which reads better and glosses as "mom". */
/** The user's relatives as said in Chinese ("老婆", "女儿", "妈"), one group. */
export const REL_ZH =
  '(前男友|前女友|前夫|前妻|老婆|妻子|太太|爱人|老公|丈夫|先生|男朋友|女朋友|男友|女友|对象|儿子|女儿|孩子|爸爸|妈妈|父亲|母亲|哥哥|姐姐|弟弟|妹妹|爷爷|奶奶|外公|外婆|姥姥|姥爷|爸|妈)';

export function kin(relation: string): string {
  return relation === '妈' ? '妈妈' : relation === '爸' ? '爸爸' : relation;
}

/** What one has on a day: a meeting, an exam, a check-up ("明天下午三点开会", "周五面试"). */
export const APPOINTMENT_ZH = '开会|面试|考试|体检|出差|值班|上课|看牙|看医生|复查|约会|聚餐|飞|出发|报到';
/** The user's own milestones, planned for a day like an appointment ("我下个月结婚", "下周六搬家"). */
export const MILESTONE_ZH = '结婚|订婚|办婚礼|搬家';
/** The same in English. */
export const APPOINTMENT_EN = "meeting|appointment|doctor's appointment|dentist appointment|interview|job interview|exam|test|flight|call|class|date|check-up|checkup";
