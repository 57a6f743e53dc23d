import { assertUserId as assertCallerUserId, GLOBAL_USER, MAX_STORED_USER_ID_LENGTH } from './domain/user-id.js';

/** The engine takes a scoped id (a tenant's, prefixed by the server), longer than a caller's own. */
const assertUserId = (value: unknown, where = 'userId'): void => assertCallerUserId(value, where, MAX_STORED_USER_ID_LENGTH);
import { InvalidInputError } from './errors.js';
import type { MemoryEngine } from './memory-engine.js';

/**
 * Checks the arguments every public method shares before any pipeline runs: the user id (one
 * rule for the whole API, `*` reserved for the global settings) and the numbers and shapes that
 * would otherwise reach SQLite or a loop untyped (NaN limits, a string where a Date belongs, a
 * null list). Pipelines still validate their own options with zod; this is the common gate.
 */
type Check = (args: readonly unknown[]) => void;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function options(args: readonly unknown[], method: string, optional = false): Record<string, unknown> {
  const o = args[0];
  if (o === undefined && optional) return {};
  if (!isRecord(o)) throw new InvalidInputError(`${method}() takes one options object`, { details: { method } });
  return o;
}

/** limit / offset / size: finite non-negative integers when given. */
function count(value: unknown, field: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new InvalidInputError(`Invalid ${field}: must be a non-negative integer, got ${typeof value === 'number' ? String(value) : typeof value}`, { details: { field } });
  }
}

function date(value: unknown, field: string): void {
  if (value === undefined) return;
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw new InvalidInputError(`Invalid ${field}: must be a valid Date`, { details: { field } });
}

const positional: Check = (args) => assertUserId(args[0]);
const inOptions = (method: string, extra?: (o: Record<string, unknown>) => void): Check => (args) => {
  const o = options(args, method);
  assertUserId(o.userId);
  count(o.limit, 'limit');
  count(o.offset, 'offset');
  extra?.(o);
};

const CHECKS: Partial<Record<keyof MemoryEngine, Check>> = {
  add: inOptions('add'),
  get: positional,
  list: inOptions('list'),
  update: positional,
  delete: positional,
  restore: positional,
  purge: positional,
  history: positional,
  relations: positional,
  recall: inOptions('recall'),
  context: inOptions('context'),
  forgetRequest: inOptions('forgetRequest'),
  searchMessages: inOptions('searchMessages'),
  appendMessages: (args) => {
    const o = options(args, 'appendMessages');
    if (!Array.isArray(o.messages)) throw new InvalidInputError('Invalid messages: must be an array', { details: { field: 'messages' } });
    o.messages.forEach((m: unknown, i) => assertUserId(isRecord(m) ? m.userId : undefined, `messages.${i}.userId`));
  },
  workingWindow: (args) => {
    assertUserId(args[0]);
    count(args[2], 'size');
  },
  getSession: positional,
  endSession: positional,
  extract: positional,
  extractionRuns: positional,
  reportReply: inOptions('reportReply', (o) => {
    if (!Array.isArray(o.recalledIds) || !o.recalledIds.every((id) => typeof id === 'string')) {
      throw new InvalidInputError('Invalid recalledIds: must be an array of memory ids', { details: { field: 'recalledIds' } });
    }
  }),
  // The settings methods alone take "*": it names the global defaults row.
  getSettings: (args) => {
    if (args[0] !== GLOBAL_USER) assertUserId(args[0]);
  },
  setSettings: (args) => {
    if (args[0] !== GLOBAL_USER) assertUserId(args[0]);
  },
  summarize: positional,
  profile: positional,
  profileVersions: positional,
  updateProfile: positional,
  recordLearning: inOptions('recordLearning'),
  recallLearnings: inOptions('recallLearnings'),
  runLifecycle: (args) => {
    const o = options(args, 'runLifecycle', true);
    if (o.userId !== undefined) assertUserId(o.userId);
  },
  compress: positional,
  listTodos: inOptions('listTodos', (o) => date(o.dueBefore, 'dueBefore')),
  completeTodo: positional,
  deleteTodo: positional,
  forget: inOptions('forget'),
  forgetTopic: positional,
  syncMirror: positional,
  exportUser: positional,
};

/** Wraps an engine so every method checks its shared arguments first (INVALID_INPUT on failure). */
export function guardEngine<E extends MemoryEngine>(engine: E): E {
  const guarded: Record<string, unknown> = { ...(engine as unknown as Record<string, unknown>) };
  for (const [name, check] of Object.entries(CHECKS) as Array<[keyof MemoryEngine, Check]>) {
    const fn = engine[name];
    if (typeof fn !== 'function') continue;
    guarded[name] = (...args: unknown[]): unknown => {
      try {
        check(args);
      } catch (error) {
        // Async methods reject instead of throwing synchronously, as their callers expect.
        return Promise.reject(error);
      }
      return (fn as (...a: unknown[]) => unknown).apply(engine, args);
    };
  }
  return guarded as E;
}
