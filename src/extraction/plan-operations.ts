import type { Memory } from '../domain/memory.js';
import { contentTextProblem, withoutControls } from '../domain/content-text.js';
import { MAX_CONTENT_LENGTH } from '../domain/memory.js';
import { holdsCredential } from './credential.js';
import { EXTRACTION_LIMITS, type AddOperation, type ExtractionResult, type MemoryOperation, type RelationSpec, type TodoUpdate } from '../domain/operations.js';

export interface Rejected {
  op: string;
  target?: string;
  reason: string;
}

/** A relation from a planned add or update to a memory that was shown. */
export interface PlannedRelation {
  type: RelationSpec['type'];
  target: Memory;
  strength: number;
  reason?: string;
}

/** At most this many relations per operation; the rest are rejected. */
export const MAX_RELATIONS_PER_OPERATION = 10;

export interface PlannedAdd {
  op: AddOperation;
  messageIds: string[];
  relations: PlannedRelation[];
}
export interface PlannedUpdate {
  memory: Memory;
  content: string;
  kind?: Memory['kind'];
  importance?: number;
  structuredData?: Record<string, unknown>;
  /** For a todo's memory: its new time as said, its new task words, or that it is done. */
  todo?: TodoUpdate;
  reason: string;
  relations: PlannedRelation[];
}
export interface PlannedTarget {
  memory: Memory;
  reason: string;
}

export interface Plan {
  adds: PlannedAdd[];
  updates: PlannedUpdate[];
  deletes: PlannedTarget[];
  reinforces: PlannedTarget[];
  skips: string[];
  rejected: Rejected[];
}

const inYears = (iso: string | undefined): boolean => {
  if (iso === undefined) return true;
  const year = new Date(iso).getUTCFullYear();
  // An unreadable date is left to the date parser (ignored there); only a readable, absurd one is refused.
  return Number.isNaN(year) || (year >= EXTRACTION_LIMITS.minYear && year <= EXTRACTION_LIMITS.maxYear);
};

/** Why an operation breaks the rules every source obeys (see EXTRACTION_LIMITS), or undefined. */
export function operationProblem(op: MemoryOperation): string | undefined {
  if (op.op === 'add' || op.op === 'update') {
    if (op.content.trim().length === 0) return 'content is empty';
    if (op.content.length > MAX_CONTENT_LENGTH) return `content longer than ${MAX_CONTENT_LENGTH} characters`;
    // The words every other door takes (a model copying a control character out of a message).
    const text = contentTextProblem(op.content);
    if (text) return `content ${text}`;
    if (op.kind !== undefined && EXTRACTION_LIMITS.forbiddenKinds.includes(op.kind)) return `kind "${op.kind}" cannot come from extraction`;
    if (holdsCredential(op.content)) return 'holds a credential (a password, card or ID number): not kept';
  }
  if (op.op === 'add' || op.op === 'update') {
    if ((op.op === 'add' && !inYears(op.happenedAt)) || !inYears(op.todo?.dueAt)) return `a date outside the years ${EXTRACTION_LIMITS.minYear}-${EXTRACTION_LIMITS.maxYear}`;
    if (op.todo?.content !== undefined && op.todo.content.length > MAX_CONTENT_LENGTH) return `todo longer than ${MAX_CONTENT_LENGTH} characters`;
    const todoText = op.todo?.content === undefined ? null : contentTextProblem(op.todo.content);
    if (todoText) return `todo ${todoText}`;
    if (op.todo?.content !== undefined && holdsCredential(op.todo.content)) return 'holds a credential (a password, card or ID number): not kept';
  }
  return undefined;
}

const normalise = (text: string): string => text.toLowerCase().replace(/[\s\p{P}\p{S}]+/gu, '');

/**
 * Turns an extractor's operations into a plan over real memories. Aliases map back to the
 * memories that were shown; an alias that was not shown is rejected (never guessed). One memory
 * gets at most one operation per batch; an add that repeats a shown memory becomes a reinforce.
 */
/**
 * An add or update with the control characters a model (or the patterns) copied out of a message
 * taken out of its words: "我说了 \u0007 我喜欢猫" makes 用户喜欢猫, not 用户喜欢\u0007猫 nor nothing.
 */
function withoutControlsIn(op: MemoryOperation): MemoryOperation {
  if (op.op === 'add') return { ...op, content: withoutControls(op.content), ...(op.todo ? { todo: { ...op.todo, content: withoutControls(op.todo.content) } } : {}) };
  if (op.op === 'update') return { ...op, content: withoutControls(op.content), ...(op.todo?.content !== undefined ? { todo: { ...op.todo, content: withoutControls(op.todo.content) } } : {}) };
  return op;
}

export function planOperations(input: {
  result: ExtractionResult;
  /** alias -> memory shown to the extractor */
  aliases: ReadonlyMap<string, Memory>;
  /** message ref or id -> message id, for the new messages only */
  refs: ReadonlyMap<string, string>;
  /** Source of an add that names no (valid) message: the batch's user messages. */
  defaultMessageIds: readonly string[];
}): Plan {
  const plan: Plan = { adds: [], updates: [], deletes: [], reinforces: [], skips: [], rejected: [] };
  const touched = new Set<string>();
  const byContent = new Map([...input.aliases.values()].map((m) => [normalise(m.content), m]));
  const addedContent = new Set<string>();

  const target = (op: string, alias: string): Memory | undefined => {
    const memory = input.aliases.get(alias.trim().replace(/^\[|\]$/g, ''));
    if (!memory) {
      plan.rejected.push({ op, target: alias, reason: 'alias was not shown' });
      return undefined;
    }
    if (touched.has(memory.id)) {
      plan.rejected.push({ op, target: alias, reason: 'memory already changed in this batch' });
      return undefined;
    }
    touched.add(memory.id);
    return memory;
  };

  // Relations name shown memories only: an invented alias is rejected like any other operation's.
  const relationsOf = (op: string, specs: readonly RelationSpec[] | undefined, from?: Memory): PlannedRelation[] => {
    const planned: PlannedRelation[] = [];
    for (const [i, spec] of (specs ?? []).entries()) {
      const memory = input.aliases.get(spec.target.trim().replace(/^\[|\]$/g, ''));
      const problem = i >= MAX_RELATIONS_PER_OPERATION ? `more than ${MAX_RELATIONS_PER_OPERATION} relations on one operation`
        : !memory ? 'alias was not shown'
        : memory.id === from?.id ? 'a memory cannot relate to itself'
        : planned.some((r) => r.target.id === memory.id && r.type === spec.type) ? 'duplicate relation'
        : undefined;
      if (problem || !memory) plan.rejected.push({ op: `${op}.relation`, target: spec.target, reason: problem ?? 'alias was not shown' });
      else planned.push({ type: spec.type, target: memory, strength: spec.strength, ...(spec.reason ? { reason: spec.reason } : {}) });
    }
    return planned;
  };

  const operations = input.result.operations;
  for (const op of operations.slice(EXTRACTION_LIMITS.maxOperations)) {
    plan.rejected.push({ op: op.op, ...('target' in op ? { target: op.target } : {}), reason: `more than ${EXTRACTION_LIMITS.maxOperations} operations in one batch` });
  }
  for (const given of operations.slice(0, EXTRACTION_LIMITS.maxOperations)) {
    const op = withoutControlsIn(given);
    const problem = operationProblem(op);
    if (problem) {
      plan.rejected.push({ op: op.op, ...('target' in op ? { target: op.target } : {}), reason: problem });
      continue;
    }
    switch (op.op) {
      case 'add': {
        const key = normalise(op.content);
        const same = byContent.get(key);
        if (same) {
          if (!touched.has(same.id)) {
            touched.add(same.id);
            plan.reinforces.push({ memory: same, reason: 'stated again' });
          }
          break;
        }
        if (addedContent.has(key)) {
          plan.rejected.push({ op: 'add', reason: 'duplicate within the batch' });
          break;
        }
        addedContent.add(key);
        const ids = (op.sourceMessageIds ?? []).map((r) => input.refs.get(r)).filter((id): id is string => id !== undefined);
        plan.adds.push({ op, messageIds: ids.length > 0 ? [...new Set(ids)] : [...input.defaultMessageIds], relations: relationsOf('add', op.relations) });
        break;
      }
      case 'update': {
        const memory = target('update', op.target);
        if (memory) {
          plan.updates.push({
            memory, content: op.content, kind: op.kind, importance: op.importance, ...(op.structuredData ? { structuredData: op.structuredData } : {}), ...(op.todo ? { todo: op.todo } : {}), reason: op.reason,
            relations: relationsOf('update', op.relations, memory),
          });
        }
        break;
      }
      case 'delete': {
        const memory = target('delete', op.target);
        if (memory) plan.deletes.push({ memory, reason: op.reason });
        break;
      }
      case 'reinforce': {
        const memory = target('reinforce', op.target);
        if (memory) plan.reinforces.push({ memory, reason: op.reason });
        break;
      }
      case 'skip':
        plan.skips.push(op.reason);
        break;
    }
  }
  return plan;
}
