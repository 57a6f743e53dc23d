import type { Message } from '../domain/conversation.js';
import type { ChangeContext } from '../domain/history.js';
import type { Memory } from '../domain/memory.js';
import type { ExtractionSettings } from '../domain/settings.js';
import type { Todo } from '../domain/todo.js';
import type { Relation } from '../domain/profile.js';
import { rescheduleTodo, scheduleTodo } from '../extraction/todo-schedule.js';
import { findReminderLead, readReminderTime, type ReminderLead } from '../extraction/reminder-lead.js';
import { looksLikeInstruction } from '../extraction/instruction-flag.js';
import type { Plan } from '../extraction/plan-operations.js';
import type { MemoryChanges, Store } from '../store/store.js';
import type { TodoChanges } from '../store/ports/todos.js';
import { memoryChangesFor, rewriteTodo, type TodoRewrite } from './edit-todo.js';
import { completeWithin, EARLY_DONE_MS } from './complete-todo.js';
import { detectLanguage } from '../text/language.js';
import type { MemoryDeps } from './deps.js';
import { structuredDataAfter, supersededCopy } from '../lifecycle/supersede.js';

/** Importance added when a conversation confirms or uses a memory (seed 001 BOOST +0.3 on its 0–3 scale). */
export const REINFORCE_STEP = 0.1;

interface Prepared {
  relations: Relation[];
  /** Old versions of updated memories, archived and linked with 'supersedes' (inserted before the updates). */
  superseded: Array<{ memory: Memory; vector: Float32Array | null; change: ChangeContext }>;
  inserts: Array<{ memory: Memory; vector: Float32Array | null; change: ChangeContext; todo?: Todo }>;
  updates: Array<{ userId: string; id: string; changes: MemoryChanges; vector: Float32Array | undefined; change: ChangeContext }>;
  /** Todos moved or reworded with their memory's update (`changes`), or said to be done (`done`: who said so). */
  todos: Array<{ userId: string; id: string; at: Date; changes?: TodoChanges; done?: ChangeContext }>;
}

function validDate(iso: string | undefined): Date | undefined {
  if (!iso) return undefined;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/**
 * Turns a plan into ready-to-write rows. Everything slow or fallible (embedding, date parsing)
 * happens here, before the transaction, so the commit itself only writes.
 */
async function prepare(
  deps: MemoryDeps,
  input: { userId: string; sessionId: string; plan: Plan; settings: ExtractionSettings; batch: readonly Message[]; producedBy: string | undefined },
): Promise<Prepared> {
  const { userId, sessionId, plan, settings, batch, producedBy } = input;
  const now = deps.clock.now();
  const moves = await todoMoves(deps, userId, plan.updates, { reference: batch.at(-1)?.createdAt ?? now, timeZone: settings.timeZone });
  // A todo's memory kept in words while its time moved says the new time (retimed), as the todo does.
  const contents = plan.updates.map((u, i) => {
    const rewrite = moves[i]?.rewrite;
    return rewrite && u.content === u.memory.content ? (memoryChangesFor(u.memory, rewrite, now, deps.embedder.id).content ?? u.content) : u.content;
  });
  const texts = [...plan.adds.map((a) => a.op.content), ...contents, ...plan.updates.map((u) => u.memory.content)];
  const vectors = texts.length > 0 ? await deps.embedder.embed(texts) : [];
  const messageTime = (ids: readonly string[]): Date => batch.find((m) => ids.includes(m.id))?.createdAt ?? batch.at(-1)?.createdAt ?? now;
  const change = (messageIds: string[], reason?: string, action?: ChangeContext['action']): ChangeContext => ({
    actor: 'extraction', producedBy: producedBy ?? 'heuristic-extractor', messageIds, ...(reason ? { reason } : {}), ...(action ? { action } : {}), at: now,
  });
  const batchIds = batch.map((m) => m.id);
  // Memory poisoning: text that instructs the assistant flags what is extracted from it.
  const instructs = (content: string, ids: readonly string[]): boolean =>
    looksLikeInstruction(content) || batch.some((m) => ids.includes(m.id) && m.role === 'user' && looksLikeInstruction(m.content));

  const inserts = plan.adds.map(({ op, messageIds }, i): Prepared['inserts'][number] => {
    const reference = messageTime(messageIds);
    const memory: Memory = {
      id: deps.ids.next(),
      userId,
      sessionId,
      kind: op.todo ? 'todo' : op.kind === 'system' ? 'fact' : op.kind,
      content: op.content,
      structuredData: op.structuredData,
      importance: op.importance,
      confidence: op.confidence,
      source: 'extraction',
      verified: false,
      core: false,
      status: 'active',
      provenance: { sessionId, messageIds, ...(producedBy ? { producedBy } : {}) },
      language: detectLanguage(op.content),
      createdAt: now,
      updatedAt: now,
      accessCount: 0,
      happenedAt: validDate(op.happenedAt),
      embedderId: deps.embedder.id,
      ...(instructs(op.content, messageIds) ? { flags: ['instruction' as const] } : {}),
    };
    let todo: Todo | undefined;
    if (memory.kind === 'todo') {
      const spec = op.todo ?? { content: op.content };
      // The model's time phrase first ("每天早上八点"), then the todo's words, then the memory's.
      const lead = readLead(deps, userId, spec.remindText, { reference, timeZone: settings.timeZone });
      const { dueAt, remindAt, repeat } = scheduleTodo({ texts: [spec.dueText, spec.content, op.content], reference, timeZone: settings.timeZone, dueAt: validDate(spec.dueAt), ...(lead ? { lead } : {}) });
      todo = {
        id: deps.ids.next(), userId, memoryId: memory.id, content: spec.content, dueAt, remindAt, ...(repeat ? { repeat } : {}),
        completed: false, reminded: false, sourceSessionId: sessionId, createdAt: now, deliveryAttempts: 0,
      };
      if (dueAt) memory.happenedAt ??= dueAt;
    }
    return { memory, vector: vectors[i] ?? null, change: change(messageIds), todo };
  });

  const updates: Prepared['updates'] = [];
  const superseded: Prepared['superseded'] = [];
  const relations: Relation[] = [];
  const todos: Prepared['todos'] = [];
  plan.updates.forEach((u, i) => {
    const content = contents[i]!;
    const move = moves[i];
    const rewrite = move?.rewrite;
    if (move) todos.push({ userId, id: move.todo.id, at: now, ...(rewrite ? { changes: rewrite.todo } : {}), ...(move.done ? { done: change(batchIds, u.reason || 'the user said it is done') } : {}) });
    // Done and nothing else said of it: completing archives the memory, with the reason.
    if (move?.done && !rewrite && content === u.memory.content && u.kind === undefined && u.importance === undefined) return;
    const data = structuredDataAfter(u.memory, content, u.structuredData);
    updates.push({
      userId, id: u.memory.id, vector: vectors[plan.adds.length + i],
      changes: {
        content, language: detectLanguage(content), embedderId: deps.embedder.id, updatedAt: now,
        ...(rewrite?.moved?.dueAt ? { happenedAt: rewrite.moved.dueAt } : {}),
        ...(u.kind ? { kind: u.kind } : {}), ...(u.importance !== undefined ? { importance: u.importance } : {}),
        ...(data !== undefined ? { structuredData: data ?? undefined } : {}),
        ...(instructs(content, batchIds) ? { flags: [...new Set([...(u.memory.flags ?? []), 'instruction' as const])] } : {}),
        provenance: { ...u.memory.provenance, messageIds: [...new Set([...u.memory.provenance.messageIds, ...batchIds])] },
      },
      change: change(batchIds, u.reason || rewrite?.reason),
    });
    // The old version stays reachable as an archived memory the current one supersedes.
    if (content !== u.memory.content) {
      const { copy, relation } = supersededCopy(u.memory, { id: deps.ids.next(), relationId: deps.ids.next(), now, reason: u.reason || 'updated in conversation', embedderId: deps.embedder.id });
      superseded.push({ memory: copy, vector: vectors[plan.adds.length + plan.updates.length + i] ?? null, change: { ...change(batchIds, u.reason), action: 'archive' } });
      relations.push(relation);
    }
  });
  for (const d of plan.deletes) {
    updates.push({ userId, id: d.memory.id, vector: undefined, changes: { status: 'deleted', updatedAt: now }, change: change(batchIds, d.reason) });
  }
  for (const r of plan.reinforces) {
    updates.push({
      userId, id: r.memory.id, vector: undefined,
      changes: { importance: Math.min(1, r.memory.importance + REINFORCE_STEP), updatedAt: now },
      change: change(batchIds, r.reason, 'reinforce'),
    });
  }
  // Relations the extractor saw (seed 004 §3.1), from the new or updated memory to a shown one.
  const related = [...plan.adds.map((a, i) => ({ sourceId: inserts[i]!.memory.id, relations: a.relations })), ...plan.updates.map((u) => ({ sourceId: u.memory.id, relations: u.relations }))];
  for (const { sourceId, relations: specs } of related) {
    // An updated memory may be linked already: the same link is not written twice.
    const existing = specs.length > 0 && plan.updates.some((u) => u.memory.id === sourceId) ? await deps.store.relationsOf(userId, sourceId) : [];
    for (const r of specs) {
      if (existing.some((e) => e.sourceId === sourceId && e.targetId === r.target.id && e.type === r.type)) continue;
      relations.push({ id: deps.ids.next(), userId, sourceId, targetId: r.target.id, type: r.type, strength: r.strength, reason: r.reason ?? `extraction: ${r.type}`, createdAt: now });
    }
  }
  // A memory deleted in the same batch as one new memory of its kind was replaced by it.
  for (const d of plan.deletes) {
    const replacements = inserts.filter((i) => i.memory.kind === d.memory.kind);
    if (replacements.length === 1) {
      relations.push({ id: deps.ids.next(), userId, sourceId: replacements[0]!.memory.id, targetId: d.memory.id, type: 'supersedes', strength: 1, reason: d.reason || 'replaced in the same conversation', createdAt: now });
    }
  }
  return { inserts, updates, relations, superseded, todos };
}

/**
 * The todos an update of their memory moves, rewords or says are done: the time the update says
 * (`todo.dueText`, or `todo.dueAt`), the task's new words (`todo.content`), `todo.done`. Only those:
 * the memory's own words are not read for a time (copied with their "明天" a day later, they would
 * move it a day).
 */
async function todoMoves(deps: MemoryDeps, userId: string, updates: Plan['updates'], o: { reference: Date; timeZone: string }): Promise<Array<{ todo: Todo; rewrite?: TodoRewrite; done: boolean } | undefined>> {
  if (!updates.some((u) => u.memory.kind === 'todo' && u.todo)) return updates.map(() => undefined);
  const open = new Map((await deps.store.listTodos({ userId, completed: false })).flatMap((t) => (t.memoryId ? [[t.memoryId, t] as const] : [])));
  return updates.map((u) => {
    const todo = u.todo ? open.get(u.memory.id) : undefined;
    if (!todo || !u.todo) return undefined;
    const schedule = u.todo.dueText ? rescheduleTodo({ todo, texts: [u.todo.dueText], ...o }) : undefined;
    // A lead said as the new time ("提前一天") moves the reminder only.
    const lead = readLead(deps, userId, u.todo.remindText, o, todo.id) ?? (u.todo.dueText && !schedule ? findReminderLead(u.todo.dueText, { alone: true }) : undefined);
    const rewrite = rewriteTodo(todo, { content: u.todo.content, ...(schedule ? { schedule } : {}), dueAt: validDate(u.todo.dueAt), ...(lead ? { lead } : {}) }, o);
    // Said, but no time in it: the todo keeps its time, and the log says why.
    if (u.todo.dueText && !schedule && !u.todo.dueAt && !lead) deps.logger.warn('a todo update named a time that could not be read; the todo keeps its time', { code: 'TODO_TIME_UNREAD', userId, todoId: todo.id, dueText: u.todo.dueText });
    const done = u.todo.done === true;
    return rewrite || done ? { todo, ...(rewrite ? { rewrite } : {}), done } : undefined;
  });
}

/**
 * A model's reminder time: a lead ("提前半小时", "a day before") or a moment of its own ("下周一",
 * "next Monday"); one that says neither is logged, and the reminder keeps its default.
 */
function readLead(deps: MemoryDeps, userId: string, remindText: string | undefined, o: { reference: Date; timeZone: string }, todoId?: string): ReminderLead | undefined {
  if (remindText === undefined || remindText.trim() === '') return undefined;
  const lead = readReminderTime(remindText, o);
  if (!lead) deps.logger.warn('a todo named a reminder time that could not be read; its reminder keeps its default', { code: 'TODO_REMINDER_UNREAD', userId, ...(todoId ? { todoId } : {}), remindText });
  return lead;
}

/** Writes a prepared plan; call inside the batch's transaction. */
async function commit(tx: Store, prepared: Prepared): Promise<void> {
  for (const s of prepared.superseded) await tx.insertMemory(s.memory, s.vector, s.change);
  for (const i of prepared.inserts) {
    await tx.insertMemory(i.memory, i.vector, i.change);
    if (i.todo) await tx.insertTodo(i.todo);
  }
  for (const u of prepared.updates) await tx.updateMemory(u.userId, u.id, u.changes, u.vector, u.change);
  for (const t of prepared.todos) {
    // Completed or deleted since the plan was made: nothing to move or complete.
    const open = (await tx.listTodos({ userId: t.userId, completed: false })).some((x) => x.id === t.id);
    if (!open) continue;
    if (t.changes) await tx.updateTodo(t.userId, t.id, t.changes);
    // Heard in conversation: an occurrence hours ahead is not the one the user means ("吃过药了" at noon, pills at 21:00).
    if (t.done) await completeWithin(tx, t.userId, t.id, t.at, { earliestMs: EARLY_DONE_MS }, t.done);
  }
  for (const r of prepared.relations) await tx.insertRelation(r);
}

export const applyPlan = { prepare, commit };
