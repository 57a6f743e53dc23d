import { NewMemoryInput, type Memory } from '../domain/memory.js';
import type { ChangeContext } from '../domain/history.js';
import { assertReminderAhead, type Todo } from '../domain/todo.js';
import { assertEndsAfterStart, type RecurrenceRule } from '../domain/recurrence.js';
import { InvalidInputError, parseInput } from '../errors.js';
import { scheduleTodo, type TodoSchedule } from '../extraction/todo-schedule.js';
import { detectLanguage } from '../text/language.js';
import { KeyedLock } from '../util/keyed-lock.js';
import { REINFORCE_STEP } from './apply-plan.js';
import type { MemoryDeps } from './deps.js';
import { compareWithExisting, sameText } from './find-duplicate.js';
import { resolveSettings } from './settings.js';

/**
 * Adds a memory by hand (no LLM): validated, embedded, stored with a 'create' history event.
 *
 * Seed 004 §4.1, for every source: a memory that says what an active memory of the same kind
 * already says (same words, or a near-identical vector) is not stored twice. The existing one is
 * reinforced instead (importance +0.1, never below the new one's) and returned, with a
 * 'reinforce' history event that says why. A todo (kind 'todo') also gets its todo row, with the
 * due time given or parsed from the content in the user's time zone, so its reminder fires, and
 * its repeat (given, or read from the content: "每天早上八点提醒我吃药").
 *
 * A todo is the same as an open one only when its due time and repeat are too: "交房租" due
 * December 1 and "交房租" due January 1 are two todos, two memories. Adds for one user are
 * checked and written one after another in this process, so two identical adds at once give one.
 */
export async function addMemory(deps: MemoryDeps, input: NewMemoryInput, change: ChangeContext = { actor: 'user' }): Promise<Memory> {
  const data = parseInput(NewMemoryInput, input, 'memory');
  if (data.kind !== 'todo' && (data.dueAt || data.remindAt || data.repeat)) throw new InvalidInputError('Invalid memory: dueAt, remindAt and repeat are for kind "todo" only');
  const now = deps.clock.now();
  // A todo's times are read and checked first: a reminder after its due time is refused before anything is written or reinforced.
  const schedule = data.kind === 'todo' ? await todoSchedule(deps, data, now) : undefined;
  const [vector] = await deps.embedder.embed([data.content]);
  return lockOf(deps.store).run(data.userId, () => save(deps, data, change, now, schedule, vector));
}

/** One lock per store: a second engine over another store does not wait on this one. */
const locks = new WeakMap<object, KeyedLock>();
const lockOf = (store: object): KeyedLock => {
  const lock = locks.get(store) ?? new KeyedLock();
  locks.set(store, lock);
  return lock;
};

/** Whether an open todo has the due time and repeat a new one would get: only then are they one todo. */
const sameSchedule = (todo: Todo, schedule: TodoSchedule): boolean => todo.dueAt?.getTime() === schedule.dueAt?.getTime() && sameRule(todo.repeat, schedule.repeat);
const sameRule = (a: RecurrenceRule | undefined, b: RecurrenceRule | undefined): boolean =>
  a === undefined || b === undefined
    ? a === b
    : a.every === b.every && a.interval === b.interval && a.day === b.day && a.until === b.until && a.timeZone === b.timeZone && (a.weekdays ?? []).join() === (b.weekdays ?? []).join();

/**
 * The memory a new todo repeats: the duplicate found, when one of the user's open todos says the
 * same (that memory, or the same words) at the same due time and repeat. Undefined: a todo of its own.
 */
async function sameTodo(deps: MemoryDeps, userId: string, content: string, duplicate: Memory, schedule: TodoSchedule): Promise<Memory | undefined> {
  const key = sameText(content);
  const open = await deps.store.listTodos({ userId, completed: false, live: true });
  const same = open.find((t) => t.memoryId !== undefined && (t.memoryId === duplicate.id || sameText(t.content) === key) && sameSchedule(t, schedule));
  if (!same?.memoryId) return undefined;
  if (same.memoryId === duplicate.id) return duplicate;
  const memory = await deps.store.getMemory(userId, same.memoryId);
  return memory?.status === 'active' ? memory : undefined;
}

async function save(
  deps: MemoryDeps, data: ReturnType<typeof NewMemoryInput.parse>, change: ChangeContext, now: Date, schedule: TodoSchedule | undefined, vector: Float32Array | undefined,
): Promise<Memory> {
  const compared = await compareWithExisting(deps, { userId: data.userId, kind: data.kind, content: data.content, vector });
  const { refines } = compared;
  let { duplicate } = compared;
  if (duplicate && schedule) {
    // Same words at another time ("交房租" on December 1, then on January 1) is another todo, not a repeat of this one.
    const memory = await sameTodo(deps, data.userId, data.content, duplicate.memory, schedule);
    duplicate = memory && { memory, why: duplicate.why };
  }
  if (duplicate) {
    const importance = Math.min(1, Math.max(duplicate.memory.importance, data.importance) + REINFORCE_STEP);
    // Confirmed when it was said again: a backfilled repeat (createdAt in the past) must not look
    // fresher than what was said after it, which recency (seed 004's time decay) would reward.
    const updatedAt = confirmedAt(duplicate.memory.updatedAt, data.createdAt, now);
    return deps.store.updateMemory(data.userId, duplicate.memory.id, { importance, updatedAt }, undefined, {
      ...change, action: 'reinforce', reason: change.reason ?? `added again (${duplicate.why}): "${data.content}"`, at: now,
    });
  }
  const memory: Memory = {
    id: deps.ids.next(),
    userId: data.userId,
    agentId: data.agentId,
    sessionId: data.sessionId,
    kind: data.kind,
    content: data.content,
    structuredData: data.structuredData,
    importance: data.importance,
    confidence: data.confidence,
    source: data.source,
    verified: data.verified ?? (data.source === 'user' || data.source === 'manual'),
    core: data.core,
    status: 'active',
    provenance: data.provenance ?? { messageIds: [] },
    language: detectLanguage(data.content),
    createdAt: data.createdAt ?? now,
    updatedAt: data.createdAt ?? now,
    accessCount: 0,
    expiresAt: data.expiresAt,
    happenedAt: data.happenedAt,
    embedderId: deps.embedder.id,
  };
  // "用户喜欢猫，尤其是布偶猫" after "用户喜欢猫": both stay, linked (seed 004 §3.1 refines).
  const relations = refines.map(({ memory: old, strength }) => ({
    id: deps.ids.next(), userId: data.userId, sourceId: memory.id, targetId: old.id, type: 'refines' as const, strength, reason: 'adds detail to it', createdAt: now,
  }));
  if (!schedule) {
    await deps.store.transaction(async (tx) => {
      await tx.insertMemory(memory, vector ?? null, change);
      for (const r of relations) await tx.insertRelation(r);
    });
    return memory;
  }
  const { dueAt, remindAt, repeat } = schedule;
  if (dueAt) memory.happenedAt ??= dueAt;
  const todo: Todo = {
    id: deps.ids.next(), userId: data.userId, memoryId: memory.id, content: data.content, dueAt, remindAt, ...(repeat ? { repeat } : {}),
    completed: false, reminded: false, sourceSessionId: data.sessionId, createdAt: now, deliveryAttempts: 0,
  };
  await deps.store.transaction(async (tx) => {
    await tx.insertMemory(memory, vector ?? null, change);
    await tx.insertTodo(todo);
    for (const r of relations) await tx.insertRelation(r);
  });
  return memory;
}

/** A new todo's due time, reminder and repeat, given or read from its words in the user's time zone. */
async function todoSchedule(deps: MemoryDeps, data: ReturnType<typeof NewMemoryInput.parse>, now: Date): Promise<TodoSchedule> {
  const { timeZone } = await resolveSettings(deps.store, data.userId);
  const schedule = scheduleTodo({ texts: [data.content], reference: now, timeZone, dueAt: data.dueAt, remindAt: data.remindAt, repeat: data.repeat });
  if (schedule.dueAt && schedule.remindAt && schedule.remindAt.getTime() > schedule.dueAt.getTime()) {
    throw new InvalidInputError('remindAt must not be after dueAt', { details: { field: 'remindAt' } });
  }
  // A reminder given before now for a todo still ahead would fire at once (remindAt 2020, dueAt 2030).
  assertReminderAhead(data.remindAt, schedule.dueAt, now);
  // A repeat given with an end before its first time ("until": "2020-01-01" on a daily series starting tomorrow).
  if (schedule.repeat && schedule.dueAt) assertEndsAfterStart(schedule.repeat, schedule.dueAt);
  return schedule;
}

/**
 * When a repeat confirms a memory: the time the repeat was said (its createdAt, else now), never
 * earlier than the memory's own last change.
 */
export function confirmedAt(lastChange: Date, saidAt: Date | undefined, now: Date): Date {
  const said = saidAt ?? now;
  return said.getTime() > lastChange.getTime() ? said : lastChange;
}
