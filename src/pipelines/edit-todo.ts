import { z } from 'zod';
import { ContentText } from '../domain/content-text.js';
import type { ChangeContext } from '../domain/history.js';
import type { Memory } from '../domain/memory.js';
import { assertEndsAfterStart, RecurrenceRule, RepeatInput } from '../domain/recurrence.js';
import { assertReminderAhead, type Todo } from '../domain/todo.js';
import { InvalidInputError, NotFoundError, parseInput } from '../errors.js';
import { retimeWords, timeWords } from '../extraction/retime-words.js';
import { reminderKept, remindWithLead, rescheduleTodo, scheduleTodo, type TodoSchedule } from '../extraction/todo-schedule.js';
import { readReminderTime, type ReminderLead } from '../extraction/reminder-lead.js';
import type { MemoryChanges, Store } from '../store/store.js';
import type { TodoChanges } from '../store/ports/todos.js';
import { detectLanguage } from '../text/language.js';
import { zonedTime } from '../domain/zoned-time.js';
import type { MemoryDeps } from './deps.js';
import { resolveSettings } from './settings.js';

/** What a person may change of an open todo; each field left out stays as it is. */
export const TodoEdit = z
  .object({
    /** The todo's new words (its memory takes them too). They do not move it: `when` does. */
    content: ContentText.pipe(z.string().trim().min(1).max(2000)).optional(),
    /**
     * The new time as said, in the user's time zone and against the todo's time: "下午四点" keeps
     * the day, "周六" keeps the time of day, "每天晚上九点" makes it a series ("4pm", "Monday",
     * "every weekday at 10am").
     */
    when: z.string().trim().min(1).max(200).optional(),
    /** The due time outright; null leaves the todo with none (and no reminder, and no repeat). */
    dueAt: z.date().nullable().optional(),
    /** The reminder outright; null: no reminder. @default as far ahead of the new due time as before */
    remindAt: z.date().nullable().optional(),
    /** A new repeat (its zone the user's unless it names one); null makes the todo a one-off. */
    repeat: RepeatInput.nullable().optional(),
    /** When the reminder comes, as said: how far ahead of its (new) time ("提前半小时", "前一天晚上", "a day before"), or a moment of its own ("明天早上八点", "next Monday"). */
    remind: z.string().trim().min(1).max(200).optional(),
  })
  .strict()
  .refine((e) => Object.values(e).some((v) => v !== undefined), { message: 'nothing to change: give content, when, dueAt, remindAt, repeat or remind' })
  .refine((e) => e.when === undefined || (e.dueAt === undefined && e.repeat === undefined), { message: 'give the new time either as words (when) or as dueAt / repeat, not both' })
  .refine((e) => e.remind === undefined || e.remindAt === undefined, { message: 'give the reminder either as words (remind) or as remindAt, not both' });
export type TodoEdit = z.input<typeof TodoEdit>;

// A refusal names the field and, where one field can fail in several ways, a `reason` (no-time,
// after-due, no-due-time, completed) with the words given (`text`): what a caller such as the web
// page needs to say it in its own language, beside the English message.

/** The schedule the edit asks for. */
function editedSchedule(before: Todo, e: z.output<typeof TodoEdit>, reference: Date, timeZone: string): TodoSchedule | undefined {
  if (e.when !== undefined) {
    const moved = rescheduleTodo({ todo: before, texts: [e.when], reference, timeZone });
    if (!moved) throw new InvalidInputError(`No time or repeat found in "${e.when}"`, { details: { field: 'when', reason: 'no-time', text: e.when } });
    return e.remindAt === undefined ? moved : { ...moved, remindAt: e.remindAt ?? undefined };
  }
  // New words alone do not move it: words copied with their "明天" a day later would move it a day.
  if (e.dueAt === undefined && e.repeat === undefined && e.remindAt === undefined) return undefined;
  if (e.dueAt === null) {
    if (e.repeat) throw new InvalidInputError('A repeating todo needs a due time', { details: { field: 'dueAt' } });
    return { dueAt: undefined, remindAt: undefined };
  }
  const repeat = e.repeat === null ? undefined : e.repeat ? RecurrenceRule.parse({ timeZone, ...e.repeat }) : before.repeat;
  let dueAt = e.dueAt ?? before.dueAt;
  if (e.repeat) {
    // A new series starts at its first occurrence (at the todo's time of day), unless a first time is given.
    const old = before.dueAt ? zonedTime(before.dueAt, timeZone) : undefined;
    dueAt = scheduleTodo({ texts: [], reference, timeZone, repeat: e.repeat, ...(e.dueAt ? { dueAt: e.dueAt } : {}), ...(old ? { timeOfDay: { hour: old.hour, minute: old.minute } } : {}) }).dueAt;
  }
  if (repeat && !dueAt) throw new InvalidInputError('A repeating todo needs a due time', { details: { field: 'dueAt' } });
  const remindAt = e.remindAt !== undefined ? (e.remindAt ?? undefined) : dueAt && dueAt.getTime() !== before.dueAt?.getTime() ? reminderKept(before, dueAt, reference) : before.remindAt;
  return { dueAt, remindAt, ...(repeat ? { repeat } : {}) };
}

const sameTime = (a: Date | undefined, b: Date | undefined): boolean => a?.getTime() === b?.getTime();

/** The todo changes between two schedules (undefined keys clear a field); empty when they agree. */
function scheduleChanges(before: Todo, after: TodoSchedule): TodoChanges {
  const changes: TodoChanges = {};
  if (!sameTime(before.dueAt, after.dueAt)) changes.dueAt = after.dueAt;
  if (!sameTime(before.remindAt, after.remindAt)) changes.remindAt = after.remindAt;
  if (JSON.stringify(before.repeat ?? null) !== JSON.stringify(after.repeat ?? null)) changes.repeat = after.repeat;
  return changes;
}

/** What a todo and its memory become, for the edit's writes. */
export interface TodoRewrite {
  todo: TodoChanges;
  /** New words given for both (a person's edit, a model's update); else words are only retimed. */
  said?: string;
  /** The new schedule, when the time moved. */
  moved?: TodoSchedule;
  timeZone: string;
  /** In the user's language: what changed, for the memory's history ("待办改到2026年11月28日16:00"). */
  reason: string;
}

/** What moves or rewords a todo: new words, and its new time as a phrase (`when`), an instant or a whole schedule. */
export interface TodoMove {
  content?: string;
  /** The new time as said ("下午四点", "every weekday at 10am"), read against the todo's time. */
  when?: string;
  dueAt?: Date;
  schedule?: TodoSchedule;
  /** How far ahead the reminder comes now ("提前半小时", "the day before"), of the new time or the todo's own. */
  lead?: ReminderLead;
}

/**
 * A todo after it was moved or reworded (an edit by hand, a model's update, "明天的会改到下午四点"):
 * the new time (see rescheduleTodo; an instant keeps the reminder's lead), and its words, when none
 * were given, rewritten to say the new time where they named the old one (retimeWords). Undefined
 * when nothing changes.
 */
export function rewriteTodo(before: Todo, input: TodoMove, o: { reference: Date; timeZone: string }): TodoRewrite | undefined {
  const timed =
    input.schedule ??
    (input.when ? rescheduleTodo({ todo: before, texts: [input.when], reference: o.reference, timeZone: o.timeZone }) : undefined) ??
    (input.dueAt ? { dueAt: input.dueAt, remindAt: reminderKept(before, input.dueAt, o.reference), ...(before.repeat ? { repeat: before.repeat } : {}) } : undefined);
  const schedule = input.lead ? withLead(timed ?? { dueAt: before.dueAt, remindAt: before.remindAt, ...(before.repeat ? { repeat: before.repeat } : {}) }, input.lead, o) : timed;
  const todo = schedule ? scheduleChanges(before, schedule) : {};
  // Only the reminder moved: the todo's words and time stay (its memory, unchanged, takes no history entry).
  const reminderOnly = 'remindAt' in todo && !('dueAt' in todo) && !('repeat' in todo);
  const moved = Object.keys(todo).length > 0 && !reminderOnly ? schedule : undefined;
  const said = input.content !== undefined && input.content !== before.content ? input.content : undefined;
  const language = detectLanguage(said ?? before.content) === 'zh' ? 'zh' : 'en';
  const content = said ?? (moved ? retimeWords(before.content, moved, { timeZone: o.timeZone, language, reference: before.createdAt, append: false }) : before.content);
  if (content !== before.content) todo.content = content;
  if (Object.keys(todo).length === 0) return undefined;
  const when = moved ? timeWords(moved, { timeZone: o.timeZone, language }) : '';
  const reason = moved ? (language === 'zh' ? `待办改到${when || '不定时'}` : `todo moved ${when || 'to no set time'}`) : language === 'zh' ? '待办内容改了' : 'todo reworded';
  return { todo, ...(said !== undefined ? { said } : {}), ...(moved ? { moved } : {}), timeZone: o.timeZone, reason };
}

/** A schedule whose reminder comes as far ahead of its time as `lead` says (none without a time), or at the lead's own moment. */
function withLead(schedule: TodoSchedule, lead: ReminderLead, o: { reference: Date; timeZone: string }): TodoSchedule {
  if (!schedule.dueAt) return lead.on ? { ...schedule, remindAt: lead.on } : schedule;
  return { ...schedule, remindAt: remindWithLead(schedule.dueAt, lead, o) };
}

/** The changes its memory takes with a todo's rewrite: the words given, or its own retimed; its time as happenedAt. */
export function memoryChangesFor(memory: Memory, rewrite: TodoRewrite, now: Date, embedderId: string): MemoryChanges {
  const changes: MemoryChanges = { updatedAt: now };
  const language = detectLanguage(memory.content) === 'zh' ? 'zh' : 'en';
  const content = rewrite.said ?? (rewrite.moved ? retimeWords(memory.content, rewrite.moved, { timeZone: rewrite.timeZone, language, reference: memory.createdAt }) : memory.content);
  if (content !== memory.content) {
    changes.content = content;
    changes.language = detectLanguage(content);
    changes.embedderId = embedderId;
  }
  if (rewrite.moved?.dueAt) changes.happenedAt = rewrite.moved.dueAt;
  return changes;
}

/** The open todo, or why it cannot change. */
async function openTodo(store: Store, userId: string, id: string): Promise<Todo> {
  const todo = (await store.listTodos({ userId })).find((t) => t.id === id);
  if (!todo) throw new NotFoundError('Todo', id);
  if (todo.completed) throw new InvalidInputError(`Todo ${id} is completed: a done todo is not changed`, { details: { field: 'id', reason: 'completed' } });
  return todo;
}

/**
 * Changes an open todo: its words, its time (as said, or given outright), its reminder, its repeat.
 * Its memory follows in the same transaction (the same words, its time as happenedAt), with a
 * history entry saying what moved; a new reminder time re-arms the reminder. A repeating todo's
 * occurrence at hand moves; the series goes on from there.
 */
export async function editTodo(deps: MemoryDeps, userId: string, id: string, edit: TodoEdit, change?: Partial<ChangeContext>): Promise<Todo> {
  const e = parseInput(TodoEdit, edit, 'todo edit');
  const now = deps.clock.now();
  const { timeZone } = await resolveSettings(deps.store, userId);
  const before = await openTodo(deps.store, userId, id);
  const schedule = editedSchedule(before, e, now, timeZone);
  // A series ends on or after the occurrence at hand: a repeat given with an end before it, or a
  // series' time moved past its last day, is refused (the field names what was given).
  const retimed = e.repeat ? 'repeat.until' : e.dueAt ? 'dueAt' : e.when !== undefined ? 'when' : undefined;
  if (retimed && schedule?.repeat && schedule.dueAt) assertEndsAfterStart(schedule.repeat, schedule.dueAt, retimed);
  if (schedule?.dueAt && schedule.remindAt && schedule.remindAt.getTime() > schedule.dueAt.getTime()) {
    throw new InvalidInputError('remindAt must not be after dueAt', { details: { field: 'remindAt' } });
  }
  if (e.remindAt) assertReminderAhead(e.remindAt, schedule?.dueAt ?? before.dueAt, now);
  const lead = e.remind === undefined ? undefined : readReminderTime(e.remind, { reference: now, timeZone });
  if (e.remind !== undefined && !lead) throw new InvalidInputError(`No reminder time found in "${e.remind}" (say "提前半小时", "前一天晚上", "明天早上八点", "30 minutes before", "the day before", "Monday at 9am")`, { details: { field: 'remind', reason: 'no-time', text: e.remind } });
  const dueAt = schedule?.dueAt ?? before.dueAt;
  if (lead?.on && dueAt && lead.on.getTime() > dueAt.getTime()) throw new InvalidInputError(`The reminder ("${e.remind}") would come after the todo's own time: a reminder comes before it`, { details: { field: 'remind', reason: 'after-due', text: e.remind } });
  if (lead && !lead.on && !dueAt) throw new InvalidInputError('A todo with no time has no reminder to move: give it a time first', { details: { field: 'remind', reason: 'no-due-time', text: e.remind } });
  const rewrite = rewriteTodo(before, { content: e.content, ...(schedule ? { schedule } : {}), ...(lead ? { lead } : {}) }, { reference: now, timeZone });
  if (!rewrite) return before;
  const memory = before.memoryId ? await deps.store.getMemory(userId, before.memoryId) : null;
  const memoryChanges = memory ? memoryChangesFor(memory, rewrite, now, deps.embedder.id) : undefined;
  const [vector] = memoryChanges?.content !== undefined ? await deps.embedder.embed([memoryChanges.content]) : [undefined];
  return deps.store.transaction(async (tx) => {
    // Read again inside: a todo completed meanwhile is not changed.
    await openTodo(tx, userId, id);
    const todo = await tx.updateTodo(userId, id, rewrite.todo);
    if (memory && memoryChanges) await tx.updateMemory(userId, memory.id, memoryChanges, vector, { reason: rewrite.reason, ...change, actor: change?.actor ?? 'user' });
    return todo;
  });
}

/**
 * Deletes a todo and, with it, its memory (soft: restorable, the history says why), which would
 * otherwise stay active as "用户有待办事项：…" in every context block. A completed todo's memory is
 * archived already and stays so. No such todo: nothing happens.
 */
export async function deleteTodo(deps: MemoryDeps, userId: string, id: string): Promise<void> {
  const todo = (await deps.store.listTodos({ userId })).find((t) => t.id === id);
  if (!todo) return;
  const memory = todo.memoryId ? await deps.store.getMemory(userId, todo.memoryId) : null;
  const now = deps.clock.now();
  await deps.store.transaction(async (tx) => {
    if (memory?.status === 'active') await tx.updateMemory(userId, memory.id, { status: 'deleted', updatedAt: now }, undefined, { actor: 'user', reason: detectLanguage(memory.content) === 'zh' ? '待办被删除' : 'the todo was deleted' });
    await tx.deleteTodo(userId, id);
  });
}
