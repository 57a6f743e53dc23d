import type { AliasedMemory, ExtractionMessage, ExtractionResult } from '../../domain/operations.js';
import { findRecurrence } from '../recurrence-phrase.js';
import { findSeriesEnd } from '../series-end.js';
import { detectLanguage, hasHan } from '../../text/language.js';
import { findTimePhrase, type TimePhrase } from '../due-time.js';
import { SINGLE_VALUED_SLOTS, type Candidate, type Lang, type Pattern, type Slot } from './candidate.js';
import { EN_PATTERNS } from './patterns-en.js';
import { ZH_PATTERNS } from './patterns-zh.js';
import { splitClauses, type Clause } from './clauses.js';
import { withPhraseDate } from './dated-phrase.js';
import { matchClause, type Match } from './match.js';
import { reconcile } from './reconcile.js';
import { matchRemembered } from './remembered.js';
import { readReminderRequest, readTimedRequest, taskOfStatement, type ReminderRequest } from './reminder-request.js';
import { findReminderLead, remindAtWithLead } from '../reminder-lead.js';
import { datedBirthday } from './dated-birthday.js';
import { seriesNote } from './series-note.js';
import { newWorkplace } from './new-workplace.js';
import { todo } from './todo-candidate.js';

export interface HeuristicExtractionInput {
  /** The new messages only; context messages are not mined. */
  messages: readonly ExtractionMessage[];
  /** Existing related memories under their aliases, to reinforce, update or delete. */
  existing: readonly AliasedMemory[];
  /**
   * The user's IANA time zone, for todo and plan dates.
   * @default 'UTC'
   */
  timeZone?: string;
}

/** Slots whose value must stand on its own: "heading there", "making it tonight" say nothing later. */
const OPEN_REFERENCE_SLOTS: ReadonlySet<Slot> = new Set<Slot>(['plan', 'goal', 'activity', 'study', 'relation', 'like', 'possession']);
/** A liked thing only needs to name itself: "making it a better place" is fine, "that world", "sharing that with others" are not. */
const OPEN_OBJECT = /^(?:it|there)\b|\bthat (?:world|place|one|thing|stuff)\b|^\w+ing (?:that|this|these|those)(?:$| (?:with|to|for|in|on|at|about)\b)/iu;
const OPEN_REFERENCE = /\b(?:it|there|that (?:world|place|one|thing|stuff)|(?:her|his) stuff)\b|^(?:那里|那儿|这个|那个|它)/iu;

/** Words that put a time phrase in the past ("yesterday", "上周"); chrono alone reads "Monday" forward. */
const PAST_CUE = /\b(?:yesterday|last|ago|earlier this|this past)\b|昨天|前天|上周|上个?星期|上个?月|去年|前年|刚才|之前|那天/iu;

/**
 * What chrono reads as a time in a plan that names none ("adopting a second dog", "the day they
 * are back"), or a length of time rather than when ("in Japan for a few months").
 */
const NOT_A_TIME = /^(?:(?:a|one) second|the day(?! (?:after|before)\b)\b.*|for\b.*)$/iu;

/** What a doctor's limit said after it is about ("我有高血压，医生让我少吃盐"). */
const CONDITION_SLOTS: ReadonlySet<Slot> = new Set<Slot>(['health', 'allergy']);

/** What a clause can do to a todo the user has: it is read a second time for what it says besides. */
const TODO_ACTIONS: ReadonlySet<Slot> = new Set<Slot>(['todo-done', 'move-todo', 'stop-reminder']);
/** Rows left out of that second reading: the actions, and the todo rows (a reminder called off is no request for one). */
const NOT_ON_SECOND_READING: ReadonlySet<Pattern> = new Set([...ZH_PATTERNS, ...EN_PATTERNS].filter((p) => TODO_ACTIONS.has(p.slot) || p.slot === 'todo'));

/** "…，叫小白" right after a pet without a name names that pet. */
const PET_NAME = /^(?:它|牠)?(?:叫|名叫|名字叫)([\p{Script=Han}·]{1,6}|[A-Za-z][A-Za-z .'-]{0,30})[了啊呀哦呢的吧啦嘛~～!！]*$/u;

/**
 * The extractor that needs no model: it reads only what the user states outright ("我叫李明",
 * "I love cats", "提醒我明天下午三点开会") with the pattern tables, and compares it with the existing
 * memories. It is honest rather than clever: anything implied or unusual is left to the LLM.
 * Assistant and system messages never produce memories.
 */
export function extractHeuristically(input: HeuristicExtractionInput): ExtractionResult {
  const timeZone = input.timeZone ?? 'UTC';
  const userMessages = input.messages.filter((m) => m.role === 'user');
  const candidates: Candidate[] = [];
  /** The user's last clause in the message before: a request that opens a message ("提前半小时提醒我", "remind me next week") may be about it. */
  let carried: { clause: Clause; candidate?: Candidate } | undefined;
  for (const message of userMessages) {
    let last: Candidate | undefined;
    /** The clause before and what it gave: a request for a reminder that says no task ("提前半小时提醒我") is about it. */
    let before: { clause: Clause; candidate?: Candidate } | undefined;
    /** A request that came first with nothing before it ("帮我设个提醒，周五交报告"): the next clause is its task. */
    let pending: ReminderRequest | undefined;
    for (const clause of splitClauses(message.content)) {
      const petName = PET_NAME.exec(clause.text);
      if (last?.slot === 'pet' && last.value.endsWith(':') && petName) {
        last.content += last.lang === 'zh' ? `，名叫${petName[1]}` : ` named ${petName[1]}`;
        last.value += petName[1];
        continue;
      }
      const request = readReminderRequest(clause.text);
      const timed = request ? undefined : readTimedRequest(clause.text, message.createdAt, timeZone);
      // Only a request reaches back into the message before.
      const prior = before ?? (request?.bare || timed ? carried : undefined);
      if (prior?.candidate && completes(prior.candidate, clause, request, message.createdAt, timeZone)) continue;
      if (timed) {
        const made = remindedAt(timed, clause, prior, message, timeZone);
        if (made.replaces) candidates.splice(candidates.indexOf(made.replaces), 1);
        if (made.todo) candidates.push((last = made.todo));
        before = { clause, ...(made.todo ? { candidate: made.todo } : {}) };
        continue;
      }
      const waiting = pending;
      pending = undefined;
      const followed = waiting && !request ? todoAsked({ ...waiting, bare: false, task: clause.text }, clause, undefined, message, timeZone) : undefined;
      if (followed) {
        candidates.push((last = followed));
        before = { clause, candidate: followed };
        continue;
      }
      const asked = request && (request.task !== undefined || request.bare) ? todoAsked(request, clause, prior, message, timeZone) : undefined;
      if (asked) {
        // The statement it makes a todo of is that todo now ("明天下午三点开会" is not a plan beside it).
        const statement = prior?.candidate && request?.bare ? candidates.indexOf(prior.candidate) : -1;
        if (statement >= 0) candidates.splice(statement, 1);
        candidates.push((last = asked));
        before = { clause, candidate: asked };
        continue;
      }
      // "你别忘了提醒我" with nothing before it to be reminded of: nothing to keep, unless what follows is its task.
      if (request?.bare) {
        pending = request;
        before = { clause };
        continue;
      }
      // "明天是我老婆的生日": read as the date it is.
      const birthday = datedBirthday(clause.text, message.createdAt, timeZone);
      let candidate = read(request?.lead ? { ...clause, text: request.text } : birthday ? { ...clause, text: birthday } : clause, message, timeZone);
      // "我换了份工作，现在在京东": after a job said over, where the user now is, is where they work.
      const ended = before?.candidate?.slot === 'job-end';
      const workplace = !candidate && ended ? newWorkplace(clause.text) : undefined;
      if (workplace) candidate = read({ ...clause, text: workplace }, message, timeZone);
      // "I quit my job, now I work at Costco": the job said after it is the new one, which replaces the old.
      if (candidate && ended && (candidate.slot === 'employer' || candidate.slot === 'job')) candidate.jobChange = true;
      // "每月15号交房租", "every weekday at 9am standup": a repeating task noted with no request is one.
      const note = candidate || clause.question ? undefined : seriesNote(clause.text);
      if (note) candidate = read({ ...clause, text: note }, message, timeZone);
      if (candidate?.todo && request?.lead) candidate.todo.remindText = request.lead.text;
      // "我下周二要去杭州见客户，提醒我前一天晚上准备材料": the day before the one the clause before names.
      if (candidate?.todo && before) candidate = dayBeforeIt(candidate, before.clause, clause, message, timeZone) ?? candidate;
      // "后天是妈妈生日，提醒我买礼物": a todo with no time of its own is for the day the clause before names.
      if (candidate?.todo && !candidate.todo.dueText && !candidate.todo.dueAt && before) candidate = timedBy(candidate, before.clause, clause, message, timeZone) ?? candidate;
      // "我有高血压，医生让我少吃盐": a doctor's limit after a condition is that condition's; one memory holds both.
      const condition = before?.candidate;
      if (candidate?.limit && condition && CONDITION_SLOTS.has(condition.slot)) {
        condition.content += candidate.lang === 'zh' ? `，${candidate.content}` : `, and ${candidate.content.replace(/^The user's /u, 'their ')}`;
        before = { clause, candidate: condition };
        continue;
      }
      before = { clause, ...(candidate ? { candidate } : {}) };
      if (candidate) candidates.push((last = candidate));
      // "I just took my pills" completes a todo, if there is one, and is still something the user
      // did; "I moved my dentist appointment to Friday" moves one, and is still what the user said.
      // Said of something that is no todo, it goes unremarked then.
      if (candidate && TODO_ACTIONS.has(candidate.slot)) {
        const also = read(clause, message, timeZone, new Set(), NOT_ON_SECOND_READING);
        if (also) {
          candidate.quiet = true;
          candidates.push((last = { ...also, besides: candidate }));
        }
      }
    }
    carried = before;
  }
  // A single-valued slot said twice in one batch ("我叫李华。不对，我叫李明"): the last word counts.
  const kept = candidates.filter((c, i) => !SINGLE_VALUED_SLOTS.has(c.slot) || !candidates.slice(i + 1).some((d) => d.slot === c.slot));
  const operations = reconcile(kept, input.existing);
  const lang: Lang = detectLanguage(userMessages.map((m) => m.content).join('\n'));
  if (operations.length === 0) {
    const reason = lang === 'zh' ? '没有明确的可记忆信息' : 'no explicit statement found';
    return { operations: [{ op: 'skip', reason }], reason };
  }
  if (operations.every((op) => op.op === 'skip')) {
    const reason = operations.map((op) => op.reason).join(lang === 'zh' ? '；' : '; ');
    return { operations, reason };
  }
  const counts = new Map<string, number>();
  for (const op of operations) counts.set(op.op, (counts.get(op.op) ?? 0) + 1);
  const summary = [...counts].map(([op, n]) => `${op} ${n}`).join(', ');
  return { operations, reason: lang === 'zh' ? `用户的明确陈述（启发式）：${summary}` : `explicit user statements (heuristic): ${summary}` };
}

/** Words that count days from a day named before: "前一天晚上", "当天早上", "the night before". */
const DAY_BEFORE_WORDS = /前一天|前一晚|头一天|当天|\bthe (?:day|night|evening|morning|afternoon) before\b|\bthe (?:morning|afternoon|evening) of\b/iu;

/**
 * A todo whose time is counted from the day the clause before names ("我下周二要去杭州见客户，提醒我
 * 前一天晚上准备材料": Monday at 20:00; chrono read "晚上" as tonight): due then, its words without
 * the count. Undefined when the clause says no such count, or the moment is not ahead.
 */
function dayBeforeIt(todo: Candidate, previous: Clause, clause: Clause, message: ExtractionMessage, timeZone: string): Candidate | undefined {
  const said = DAY_BEFORE_WORDS.exec(clause.text);
  const lead = said ? findReminderLead(clause.text.slice(said.index), { alone: true }) : undefined;
  const phrase = lead?.days !== undefined ? findTimePhrase({ text: previous.text, reference: message.createdAt, timeZone }) : undefined;
  const at = phrase && lead ? remindAtWithLead(phrase.date, lead, timeZone) : undefined;
  if (!lead || !at || at.getTime() <= message.createdAt.getTime()) return undefined;
  const zh = todo.lang === 'zh';
  const task = (todo.todo?.content ?? '').replace(DAY_BEFORE_WORDS, ' ').replace(/早上|上午|中午|下午|傍晚|晚上/gu, '').replace(/\s{2,}/g, ' ').trim();
  if (task === '') return undefined;
  const asked = read({ ...clause, text: zh ? `提醒我${task}` : `remind me to ${task}`, question: false }, message, timeZone);
  if (!asked?.todo) return undefined;
  const dated: TimePhrase = { text: lead.text, index: 0, date: at, named: { day: true, time: lead.at !== undefined } };
  const content = withPhraseDate(zh ? `用户有待办事项：${lead.text}${task}` : `The user has a to-do: ${task} ${lead.text}`, dated, timeZone, todo.lang);
  return { ...asked, content, todo: { content: task, dueAt: at.toISOString() } };
}

/** The todo again, due on the day (and time) the clause before it names ahead; undefined when it names none. */
function timedBy(todo: Candidate, previous: Clause, clause: Clause, message: ExtractionMessage, timeZone: string): Candidate | undefined {
  const phrase = findTimePhrase({ text: previous.text, reference: message.createdAt, timeZone });
  if (!phrase || phrase.date.getTime() <= message.createdAt.getTime() || !todo.todo) return undefined;
  const task = todo.todo.content;
  const timed = read({ ...clause, text: todo.lang === 'zh' ? `提醒我${phrase.text}${task}` : `remind me to ${task} ${phrase.text.charAt(0).toLowerCase()}${phrase.text.slice(1)}`, question: false }, message, timeZone);
  return timed?.todo?.dueText ? { ...timed, ...(todo.todo.remindText ? { todo: { ...timed.todo, remindText: todo.todo.remindText } } : {}) } : undefined;
}

/**
 * Whether the clause only completes the todo the clause before asked for or moved, which takes it:
 * the end of its series ("每天早上八点提醒我吃药，到周五为止"), or a reminder's lead or a bare request
 * ("提醒我周五交报告，提前一天", "明天的会改到下午四点，提前半小时提醒我").
 */
function completes(previous: Candidate, clause: Clause, request: ReminderRequest | undefined, reference: Date, timeZone: string): boolean {
  const ending = previous.todo?.dueText && findRecurrence(previous.todo.dueText) ? endAlone(clause.text, reference, timeZone) : undefined;
  if (ending && previous.todo) {
    const join = (a: string): string => (previous.lang === 'zh' ? `${a}，${ending}` : `${a} ${ending}`);
    previous.todo.dueText = join(previous.todo.dueText!);
    previous.content = join(previous.content);
    return true;
  }
  if (!request?.bare || !(previous.todo || previous.slot === 'move-todo')) return false;
  if (request.lead && previous.todo) previous.todo.remindText ??= request.lead.text;
  else if (request.lead) previous.remindText ??= request.lead.text;
  return true;
}

/** A clause that says only when a series ends ("到周五为止", "until Friday"): those words. */
function endAlone(text: string, reference: Date, timeZone: string): string | undefined {
  const end = findSeriesEnd(text, reference, timeZone);
  return end && text.replace(end.text, '').replace(/[\s，,。.!！吧啊哦]+/gu, '') === '' ? end.text : undefined;
}

/** A statement of something to do, with or without a time: "我得给银行打电话", "I need to call the bank". */
const TO_DO = /^(?:我)?(?:还|也)?(?:要|得|需要|必须|该|应该|准备|打算)|^I(?:'ve| have)? (?:need|have|must|should|gotta|got to|want)\b|^I'm (?:going to|gonna|supposed to)\b|^(?:need|have) to\b/iu;

/**
 * A request that says only when ("下周提醒我", "remind me in an hour") and what it is about: the
 * clause before. A todo there is reminded then (before its time); something to do with a time of its
 * own ("我要在三月前续签护照") becomes a todo reminded then, in place of the plan; something to do
 * with none ("我得给银行打电话") is due then. With nothing before it to be reminded of, the reminder
 * is still kept, saying that nothing was said of what: the user asked for it.
 */
function remindedAt(phrase: TimePhrase, clause: Clause, before: { clause: Clause; candidate?: Candidate } | undefined, message: ExtractionMessage, timeZone: string): { todo?: Candidate; replaces?: Candidate } {
  const previous = before?.candidate;
  const due = (c: Candidate): number | undefined => {
    const at = c.todo?.dueAt ?? c.happenedAt;
    return at ? Date.parse(at) : undefined;
  };
  const sooner = (c: Candidate): boolean => {
    const at = due(c);
    return at !== undefined && at > phrase.date.getTime();
  };
  // A todo is reminded then, if that is before its time (a series keeps its reminders ahead of each time).
  if (previous?.todo) {
    if (!findRecurrence(previous.todo.dueText ?? '') && sooner(previous)) previous.todo.remindText = phrase.text;
    return {};
  }
  // Something with a time of its own later than the reminder: "下周五交报告，周三提醒我", "Dentist on Friday at 3pm, remind me tomorrow".
  const timed = before ? todoAsked({ text: before.clause.text, bare: false, task: before.clause.text }, clause, undefined, message, timeZone) : undefined;
  if (timed?.todo) {
    // A reminder after the time it is for ("明天开会，下周提醒我") reminds of nothing: the request is dropped.
    if (!sooner(timed) || findRecurrence(timed.todo.dueText ?? '')) return {};
    timed.todo.remindText = phrase.text;
    // A plan is the todo now; anything else said (a birthday) stays beside it.
    return { todo: timed, ...(previous && (previous.slot === 'plan' || previous.slot === 'goal') ? { replaces: previous } : {}) };
  }
  const said = before ? taskOfStatement(before.clause.text) : '';
  const zh = hasHan(clause.text);
  if (before && TO_DO.test(before.clause.text.trim()) && !findTimePhrase({ text: said, reference: message.createdAt, timeZone })) {
    const task = said.replace(/^(?:还|也)?(?:要|得|需要|必须|该|应该|准备|打算)/u, '');
    const asked = read({ ...clause, text: zh ? `提醒我${phrase.text}${task}` : `remind me to ${task} ${phrase.text}`, question: false }, message, timeZone);
    if (asked?.todo?.dueText) return { todo: asked, ...(previous ? { replaces: previous } : {}) };
  }
  const bare = read({ ...clause, text: zh ? `提醒我${phrase.text}${NOTHING_SAID.zh}` : `remind me ${NOTHING_SAID.en} ${phrase.text}`, question: false }, message, timeZone);
  return bare?.todo?.dueText ? { todo: bare } : {};
}

/** The task of a reminder asked for with nothing said of what. */
const NOTHING_SAID = { zh: '（没说提醒什么）', en: 'a reminder (nothing said of what)' } as const;

/**
 * The todo a reminder request makes of a task said apart from it: before it in the clause ("下周五交报告
 * 提前一天提醒我", "The report is due Friday, remind me"), or in the clause before ("明天下午三点开会，
 * 提前半小时提醒我"). Only a task with a time ahead, or a repeat: "我好累，提醒我" asks for nothing.
 */
function todoAsked(request: ReminderRequest, clause: Clause, before: { clause: Clause } | undefined, message: ExtractionMessage, timeZone: string): Candidate | undefined {
  const said = request.task ?? (request.bare && before ? before.clause.text : undefined);
  if (said === undefined) return undefined;
  // "Move the dentist call to 4pm, remind me 15 minutes before": the task is a todo moved, with its lead.
  const action = request.task !== undefined ? read({ ...clause, text: said }, message, timeZone) : undefined;
  if (action?.slot === 'move-todo') return request.lead ? { ...action, remindText: request.lead.text } : action;
  const task = taskOfStatement(said);
  const phrase = findTimePhrase({ text: task, reference: message.createdAt, timeZone });
  if (!findRecurrence(task) && !(phrase && phrase.date.getTime() > message.createdAt.getTime())) return undefined;
  const text = hasHan(task) ? `提醒我${task}` : `remind me ${task}`;
  const candidate = read({ ...clause, text, question: false }, message, timeZone);
  if (candidate?.slot !== 'todo' || !candidate.todo) return undefined;
  if (request.lead) candidate.todo.remindText = request.lead.text;
  return candidate;
}

/** `skip`: rows tried already (a plan that needed a time found none); `except`: rows this reading leaves out. */
function read(clause: Clause, message: ExtractionMessage, timeZone: string, skip: ReadonlySet<Pattern> = new Set(), except: ReadonlySet<Pattern> = new Set()): Candidate | undefined {
  let match: Match | undefined = matchClause(clause.text, (p) => !skip.has(p) && !except.has(p) && (!clause.question || p.slot === 'todo' || p.slot === 'move-todo'));
  // Asked outright to be remembered: kept as said when no row reads it.
  if (!match && clause.remembered && !clause.question && skip.size === 0) match = matchRemembered(clause.text);
  if (!match) return undefined;
  // "记得我叫李明" is a statement behind a "remember", not a task.
  const task = match.statement.task;
  if (match.pattern.slot === 'todo' && task && /^(?:我|I\b|my\b)/i.test(task)) {
    match = matchClause(task, (p) => p.slot !== 'todo') ?? matchRemembered(task) ?? match;
  }
  const { pattern, statement, lang } = match;
  // A plan or event about "it" or "there" means nothing once the conversation is gone.
  if (OPEN_REFERENCE_SLOTS.has(pattern.slot) && (pattern.slot === 'like' ? OPEN_OBJECT : OPEN_REFERENCE).test(statement.value)) return undefined;
  const base: Candidate = {
    ...statement,
    content: statement.content.trim(),
    value: statement.value.trim(),
    slot: pattern.slot,
    kind: pattern.kind,
    importance: pattern.importance,
    lang,
    messageId: message.id,
    correction: clause.correction,
  };
  const reference = message.createdAt;
  if (pattern.slot === 'todo' && statement.task) return todo(base, statement.task, timeZone, reference);
  if (statement.past) {
    // "Last weekend I went hiking": a past time phrase dates the event, else the message does.
    const phrase = PAST_CUE.test(clause.text) ? findTimePhrase({ text: clause.text, reference, timeZone, forwardDate: false }) : undefined;
    const dated = phrase && phrase.date.getTime() <= reference.getTime() ? phrase : undefined;
    if (!dated) return { ...base, happenedAt: reference.toISOString() };
    return { ...base, content: withPhraseDate(base.content, dated, timeZone, lang), happenedAt: dated.date.toISOString() };
  }
  if (pattern.slot === 'plan' || pattern.slot === 'goal') {
    const found = findTimePhrase({ text: clause.text, reference, timeZone });
    // "I have to go now" plans nothing: the moment of speaking is no time for a plan.
    const phrase = found && !/^(?:right )?now$|^现在$|^马上$/iu.test(found.text.trim()) ? found : undefined;
    // A plan row that needs a time found none: a later row may still read the clause ("I am building … project").
    if (statement.needsTime && !phrase) return skip.size < 8 ? read(clause, message, timeZone, new Set([...skip, pattern]), except) : undefined;
    if (!phrase || NOT_A_TIME.test(phrase.text.trim())) return base;
    return { ...base, content: withPhraseDate(base.content, phrase, timeZone, lang), happenedAt: phrase.date.toISOString() };
  }
  return base;
}
