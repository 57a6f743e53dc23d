import type { AliasedMemory, MemoryOperation } from '../../domain/operations.js';
import { detectLanguage } from '../../text/language.js';
import { normalize, SINGLE_VALUED_SLOTS, type Candidate, type Lang, type Slot } from './candidate.js';
import { splitClauses } from './clauses.js';
import { matchClause } from './match.js';
import { relativeDied, relativeMemory } from './relative-death.js';
import { todoNamed } from './todo-named.js';
import { formerJob, oneClause, samePet, saysLess, swapValue } from './value-change.js';

/** What an existing memory says, read back with the same pattern tables. */
interface Known {
  memory: AliasedMemory;
  slot: Slot;
  value: string;
  who?: readonly string[];
}

/**
 * Existing memories are third person ("用户叫李华", "The user loves cats"); turned back into first
 * person they run through the very tables that read the user, so both sides agree on slots.
 */
function firstPerson(content: string): string {
  if (detectLanguage(content) === 'zh') return content.replace(/用户/g, '我');
  return content
    .replace(/\bthe user's\b/gi, 'my')
    .replace(/\bthe user is\b/gi, "I'm")
    .replace(/\bthe user has\b/gi, 'I have')
    .replace(/\bthe user (?:doesn't|does not)\b/gi, "I don't")
    .replace(/\bthe user ((?:really |also |absolutely |just |no longer |never |truly |totally |still )*)([a-z]+)\b/gi, (_, adv: string, verb: string) => {
      const base = /(?:ch|sh|ss|x|o)es$/.test(verb) ? verb.slice(0, -2) : /[^s]s$/.test(verb) ? verb.slice(0, -1) : verb;
      return `I ${adv}${base}`;
    });
}

/** The name a pet memory gives in a clause of its own ("…，名叫咪咪", "… named Biscuit" is read whole). */
const PET_NAMED = /^(?:它)?(?:叫|名叫|名字叫)(\S{1,20})$/u;

function readExisting(existing: readonly AliasedMemory[]): Known[] {
  const known: Known[] = [];
  for (const memory of existing) {
    // A session's summary quotes the user ("用户说：我喜欢猫；…"): it is no fact to update or delete.
    if (memory.kind === 'episode') continue;
    for (const clause of splitClauses(firstPerson(memory.content))) {
      // "用户养了一只猫，名叫咪咪": the name in the clause after is the pet's.
      const before = known.at(-1);
      const named = PET_NAMED.exec(clause.text);
      if (named && before?.memory === memory && before.slot === 'pet' && before.value.endsWith(':')) {
        before.value += named[1];
        continue;
      }
      const match = matchClause(clause.text, (p) => p.slot !== 'todo');
      if (!match) continue;
      known.push({ memory, slot: match.pattern.slot, value: match.statement.value, ...(match.statement.who ? { who: match.statement.who } : {}) });
      // "用户在字节跳动做前端" says where the user works too: "我跳槽到腾讯了" changes it.
      if (match.statement.employer) known.push({ memory, slot: 'employer', value: match.statement.employer });
    }
  }
  return known;
}

const JOB_SLOTS: ReadonlySet<Slot> = new Set<Slot>(['job', 'employer']);

const same = (a: string, b: string): boolean => normalize(a) === normalize(b);

/** The thing without the verb it was had by: "喝咖啡" and "咖啡", "drinking coffee" and "coffee" are one. */
const CONSUMED = /^(?:喝|吃|抽|看|听|玩|drinking|drink|eating|eat|smoking|smoke|watching|watch|playing|play)(?=.)/u;
const sameThing = (a: string, b: string): boolean => same(a, b) || normalize(a).replace(CONSUMED, '') === normalize(b).replace(CONSUMED, '');

const LABELS: Partial<Record<Slot, readonly [string, string]>> = {
  name: ['名字', 'name'],
  job: ['职业', 'job'],
  employer: ['工作单位', 'employer'],
  home: ['住址', 'home'],
  origin: ['籍贯', 'origin'],
  diet: ['饮食', 'diet'],
  birthday: ['生日', 'birthday'],
  age: ['年龄', 'age'],
  bloodType: ['血型', 'blood type'],
  height: ['身高', 'height'],
  replyLanguage: ['回复语言', 'reply language'],
};

function reason(lang: Lang, zh: string, en: string): string {
  return lang === 'zh' ? zh : en;
}

/** One candidate against what is already known: the operation that keeps memory true and lean. */
function decide(c: Candidate, existing: readonly AliasedMemory[], known: readonly Known[]): MemoryOperation {
  const duplicate = existing.find((m) => same(m.content, c.content));
  if (duplicate) return { op: 'reinforce', target: duplicate.alias, reason: reason(c.lang, '用户再次提到', 'the user said it again') };

  // "Emma is my daughter" when a memory names her so already ("The user's daughter Emma is 12").
  const named = c.slot === 'family' && c.who ? known.find((k) => c.who!.every((w) => k.who?.some((v) => same(v, w)))) : undefined;
  if (named) return { op: 'reinforce', target: named.memory.alias, reason: reason(c.lang, '用户再次提到', 'the user said it again') };

  if (SINGLE_VALUED_SLOTS.has(c.slot)) {
    // A new job replaces the job memory whichever slot holds it ("I got a new job at Costco" of "The user is a nurse"),
    // when that memory says nothing else that would go with it.
    const holder = known.find((k) => k.slot === c.slot) ?? (c.jobChange ? known.find((k) => JOB_SLOTS.has(k.slot) && oneClause(k.memory.content)) : undefined);
    if (holder && (same(holder.value, c.value) || saysLess(c, holder.value))) {
      return { op: 'reinforce', target: holder.memory.alias, reason: reason(c.lang, '用户再次提到', 'the user said it again') };
    }
    if (holder) {
      const content = swapValue(holder.memory.content, holder.value, c);
      const [zh, en] = LABELS[c.slot] ?? ['信息', 'details'];
      return {
        op: 'update', target: holder.memory.alias, content, kind: c.kind, structuredData: { extractor: 'heuristic', slot: c.slot, value: c.value },
        reason: reason(c.lang, `用户${c.correction ? '更正' : '更新'}了${zh}：${holder.value} → ${c.value}`, `the user ${c.correction ? 'corrected' : 'updated'} their ${en}: ${holder.value} → ${c.value}`),
      };
    }
  }

  if (c.slot === 'kinAge') {
    // The same relative's age: by relation ("女儿", "daughter") or by name ("Lily").
    const holder = known.find((k) => k.slot === 'kinAge' && k.who?.some((w) => c.who?.some((v) => same(v, w))));
    if (holder && same(holder.value, c.value)) return { op: 'reinforce', target: holder.memory.alias, reason: reason(c.lang, '用户再次提到', 'the user said it again') };
    if (holder) {
      // Only the age changes in the memory ("用户的女儿小七今年七岁": the name stays).
      const old = holder.memory.content;
      const age = c.lang === 'zh' ? new RegExp(`${holder.value}(?=岁)`, 'u') : new RegExp(`\\b${holder.value}\\b`, 'u');
      const content = detectLanguage(old) === c.lang && age.test(old) ? old.replace(age, c.value) : c.content;
      return {
        op: 'update', target: holder.memory.alias, content, kind: c.kind, structuredData: { extractor: 'heuristic', slot: c.slot, value: c.value },
        reason: reason(c.lang, `用户${c.correction ? '更正' : '更新'}了年龄：${holder.value} → ${c.value}`, `the user ${c.correction ? 'corrected' : 'updated'} an age: ${holder.value} → ${c.value}`),
      };
    }
    // "Lily is 8" of no one a memory names: who Lily is was never said.
    if (c.quiet) return { op: 'skip', reason: '' };
  }

  if (c.slot === 'favorite' || c.slot === 'personBirthday') {
    // The favourite of the same kind ("电影", "movie"), the birthday of the same person ("小王", "Mark"): the new one takes its place.
    const holder = known.find((k) => k.slot === c.slot && k.who?.some((w) => c.who?.some((v) => same(v, w))));
    if (holder && sameThing(holder.value, c.value)) return { op: 'reinforce', target: holder.memory.alias, reason: reason(c.lang, '用户再次提到', 'the user said it again') };
    if (holder) {
      const what = c.who?.[0] ?? '';
      const [zh, en] = c.slot === 'favorite' ? [`用户最喜欢的${what}`, `the user's favorite ${what}`] : [`${what}的生日`, `${what}'s birthday`];
      return {
        op: 'update', target: holder.memory.alias, content: c.content, kind: c.kind, structuredData: { extractor: 'heuristic', slot: c.slot, value: c.value },
        reason: reason(c.lang, `${zh}变了：${holder.value} → ${c.value}`, `${en} changed: ${holder.value} → ${c.value}`),
      };
    }
  }

  if (c.slot === 'like' || c.slot === 'dislike') {
    const holder = known.find((k) => (k.slot === 'like' || k.slot === 'dislike') && same(k.value, c.value));
    if (holder?.slot === c.slot) return { op: 'reinforce', target: holder.memory.alias, reason: reason(c.lang, '用户再次表达了这个偏好', 'the user restated this preference') };
    if (holder) return { op: 'update', target: holder.memory.alias, content: c.content, kind: c.kind, structuredData: { extractor: 'heuristic', slot: c.slot, value: c.value }, reason: reason(c.lang, '用户的偏好变了', "the user's preference changed") };
  }

  if (c.slot === 'stop-reminder') {
    // The todo that holds the task: deleting its memory withdraws the todo and its reminders.
    const holder = todoNamed(c.value, c.lang, existing);
    if (holder) return { op: 'delete', target: holder.alias, reason: reason(c.lang, `用户不需要再被提醒${c.value}`, `the user no longer wants reminding to ${c.value}`) };
    return { op: 'skip', reason: c.quiet ? '' : reason(c.lang, `没有找到要停止的提醒：${c.value}`, `no reminder found to stop: ${c.value}`) };
  }

  if (c.slot === 'move-todo' && (c.moveTo || c.remindText)) {
    // The todo that holds the task moves (or only its reminder); its memory's words are retimed when the plan is applied.
    const holder = todoNamed(c.value, c.lang, existing);
    const todo = { ...(c.moveTo ? { dueText: c.moveTo } : {}), ...(c.remindText ? { remindText: c.remindText } : {}) };
    const why = c.moveTo ? reason(c.lang, `用户把待办改到${c.moveTo}`, `the user moved the to-do to ${c.moveTo}`) : reason(c.lang, `用户要${c.remindText}提醒`, `the user wants reminding ${c.remindText}`);
    if (holder) return { op: 'update', target: holder.alias, content: holder.content, todo, reason: why };
    return { op: 'skip', reason: c.quiet ? '' : reason(c.lang, `没有找到要改时间的待办：${c.value}`, `no to-do found to move: ${c.value}`) };
  }

  if (c.slot === 'todo-done') {
    // The todo that holds the task is done; a statement that completes none is only what the user did (read again for that).
    const holder = todoNamed(c.value, c.lang, existing, c.doneVerb, c.wholeTask);
    if (holder) return { op: 'update', target: holder.alias, content: holder.content, todo: { done: true }, reason: reason(c.lang, `用户说${c.value}已经办了`, `the user said it is done: ${c.value}`) };
    return { op: 'skip', reason: '' };
  }

  if (c.slot === 'no-longer-like') {
    const holder = known.find((k) => k.slot === 'like' && sameThing(k.value, c.value));
    if (holder) return { op: 'delete', target: holder.memory.alias, reason: reason(c.lang, `用户不再喜欢${c.value}`, `the user no longer likes ${c.value}`) };
  }

  if (c.slot === 'no-longer') {
    const value = normalize(c.value);
    const holder =
      known.find((k) => k.slot !== 'no-longer' && k.slot !== 'no-longer-like' && sameThing(k.value, c.value))?.memory ??
      (value.length >= 2 ? existing.find((m) => normalize(m.content).includes(value)) : undefined);
    if (holder) return { op: 'update', target: holder.alias, content: c.content, kind: c.kind, reason: reason(c.lang, '情况已经改变', 'this is no longer true') };
    // "我现在不饿了": over, but nothing known was so.
    if (c.quiet) return { op: 'skip', reason: '' };
  }

  if (c.slot === 'job-end') {
    // The job memory (the workplace said must be in it) is over now: it says so, and what the job was, in the same language.
    const said = normalize(c.value);
    const holder = known.find((k) => JOB_SLOTS.has(k.slot) && oneClause(k.memory.content) && detectLanguage(k.memory.content) === c.lang && normalize(k.memory.content).includes(said));
    if (holder) {
      return { op: 'update', target: holder.memory.alias, content: formerJob(holder.memory.content, c), kind: holder.memory.kind, structuredData: { extractor: 'heuristic', slot: c.slot, value: c.value }, reason: reason(c.lang, '用户的工作变了', "the user's job changed") };
    }
  }

  if (c.slot === 'loss' && c.lost) {
    // The pet's memory says it died now: the memory of a living pet would mislead every later answer.
    const holder = c.lost.pet ? known.find((k) => k.slot === 'pet' && detectLanguage(k.memory.content) === c.lang && samePet(k.value, c.lost!)) : undefined;
    if (holder) {
      // Named as the memory names it: "我的猫去世了" of "用户养了一只猫，名叫咪咪" is 用户的猫咪咪去世了.
      const [kind = '', name = ''] = holder.value.split(':');
      const subject = c.lang === 'zh' ? `用户的${kind}${name}` : `The user's ${kind}${name ? ` ${name}` : ''}`;
      const content = `${subject}${c.content.slice(c.lost.subject)}`;
      return { op: 'update', target: holder.memory.alias, content, kind: holder.memory.kind, structuredData: { extractor: 'heuristic', slot: c.slot, value: c.value }, reason: reason(c.lang, `用户的${c.value}去世了`, `the user's ${c.value} died`) };
    }
    // A relative's memory ("用户的爷爷住在山东") says they died, and what it said of them in the past.
    const relative = c.lost.pet ? undefined : relativeMemory(existing, c.lost, c.lang);
    if (relative?.died) return { op: 'reinforce', target: relative.memory.alias, reason: reason(c.lang, '用户再次提到', 'the user said it again') };
    if (relative) {
      return { op: 'update', target: relative.memory.alias, content: relativeDied(relative, c), kind: relative.memory.kind, structuredData: { extractor: 'heuristic', slot: c.slot, value: c.value }, reason: reason(c.lang, `用户的${c.value}去世了`, `the user's ${c.value} died`) };
    }
    // A name no memory knows: whose it is was never said.
    if (c.quiet) return { op: 'skip', reason: '' };
  }

  if (c.slot === 'pet' && !c.value.endsWith(':')) {
    const holder = known.find((k) => k.slot === 'pet' && same(k.value, c.value));
    if (holder) return { op: 'reinforce', target: holder.memory.alias, reason: reason(c.lang, '用户再次提到', 'the user said it again') };
  }

  return {
    op: 'add',
    kind: c.kind,
    content: c.content,
    importance: c.importance,
    confidence: 0.7,
    sourceMessageIds: [c.messageId],
    ...(c.happenedAt ? { happenedAt: c.happenedAt } : {}),
    ...(c.todo ? { todo: c.todo } : {}),
    structuredData: { extractor: 'heuristic', slot: c.slot, value: c.value },
  };
}

/**
 * Turns candidates into operations: a repeat reinforces, a changed single value or preference
 * updates the memory holding the old one, "no longer" deletes or rewrites it, the rest is added.
 * Each existing memory gets at most one operation, the last one said.
 */
export function reconcile(candidates: readonly Candidate[], existing: readonly AliasedMemory[]): MemoryOperation[] {
  const known = readExisting(existing);
  const byTarget = new Map<string, MemoryOperation>();
  const adds = new Map<string, MemoryOperation>();
  // Why a request came to nothing ("no to-do found to move"): kept, so the run says so.
  const skips: MemoryOperation[] = [];
  /** Todos done by what was said: the same words are no event of their own then ("I already took my pills"). */
  const done = new Set<Candidate>();
  for (const c of candidates) {
    if (c.besides && done.has(c.besides)) continue;
    const op = decide(c, existing, known);
    if (c.slot === 'todo-done' && op.op === 'update') done.add(c);
    if (op.op === 'add') adds.set(normalize(op.content), op);
    // A skip with no reason is a statement that asked nothing of Engram ("I just took my pills" with no such todo).
    else if (op.op === 'skip') {
      if (op.reason !== '') skips.push(op);
    }
    else {
      const before = byTarget.get(op.target);
      if (!(op.op === 'reinforce' && before && before.op !== 'reinforce')) byTarget.set(op.target, op);
    }
  }
  return [...byTarget.values(), ...adds.values(), ...skips];
}
