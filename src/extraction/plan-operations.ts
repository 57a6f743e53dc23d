import type { Memory } from '../domain/memory.js';
import type { AddOperation, ExtractionResult } from '../domain/operations.js';

export interface Rejected {
  op: string;
  target?: string;
  reason: string;
}

export interface PlannedAdd {
  op: AddOperation;
  messageIds: string[];
}
export interface PlannedUpdate {
  memory: Memory;
  content: string;
  kind?: Memory['kind'];
  importance?: number;
  structuredData?: Record<string, unknown>;
  reason: string;
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

const normalise = (text: string): string => text.toLowerCase().replace(/[\s\p{P}\p{S}]+/gu, '');

/**
 * Turns an extractor's operations into a plan over real memories. Aliases map back to the
 * memories that were shown; an alias that was not shown is rejected (never guessed). One memory
 * gets at most one operation per batch; an add that repeats a shown memory becomes a reinforce.
 */
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

  for (const op of input.result.operations) {
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
        plan.adds.push({ op, messageIds: ids.length > 0 ? [...new Set(ids)] : [...input.defaultMessageIds] });
        break;
      }
      case 'update': {
        const memory = target('update', op.target);
        if (memory) plan.updates.push({ memory, content: op.content, kind: op.kind, importance: op.importance, ...(op.structuredData ? { structuredData: op.structuredData } : {}), reason: op.reason });
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
