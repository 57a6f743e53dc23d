import { MEMORY_KINDS, MEMORY_STATUSES, type MemoryKind, type MemoryStatus } from '../domain/memory.js';
import { InvalidInputError } from '../errors.js';
import { RECIPES, type RecipeName } from '../recall/recipes.js';

/**
 * Parsers for option values. Each throws INVALID_INPUT naming the option, so bad input is one
 * clear line (exit code 2) before any database is opened.
 */

function oneOf<T extends string>(option: string, allowed: readonly T[], value: string): T {
  const v = value.trim().toLowerCase();
  if ((allowed as readonly string[]).includes(v)) return v as T;
  throw new InvalidInputError(`${option}: unknown value "${value}"; expected one of ${allowed.join(', ')}`);
}

/** Repeatable and comma-separated: `--kind preference --kind fact` or `--kind preference,fact`. */
function many<T extends string>(option: string, allowed: readonly T[]) {
  return (value: string, previous: T[] | undefined): T[] => [
    ...(previous ?? []),
    ...value
      .split(',')
      .filter((v) => v.trim() !== '')
      .map((v) => oneOf(option, allowed, v)),
  ];
}

/** `--if-version <version>`: the version `engram show` printed; the change applies only to it. */
export const IF_VERSION_HELP = 'change it only if it is still at this version (as `engram show` printed it); else PRECONDITION_FAILED and nothing changes';
export function versionCondition(value: string | undefined): { ifVersion: string } | undefined {
  if (value === undefined) return undefined;
  const v = value.trim().replace(/^"(.*)"$/, '$1');
  if (v === '') throw new InvalidInputError('--if-version: give the version `engram show` printed');
  return { ifVersion: v };
}

export const parseKind = (value: string): MemoryKind => oneOf('--kind', MEMORY_KINDS, value);
export const collectKinds = many('--kind', MEMORY_KINDS);
export const collectStatuses = many<MemoryStatus>('--status', MEMORY_STATUSES);

export const RECIPE_NAMES = Object.keys(RECIPES) as RecipeName[];
export const parseRecipe = (value: string): RecipeName => {
  // Recipe names are camelCase (hybridRrf), so match them case-insensitively but return the real name.
  const found = RECIPE_NAMES.find((r) => r.toLowerCase() === value.trim().toLowerCase());
  if (found) return found;
  throw new InvalidInputError(`--recipe: unknown recipe "${value}"; expected one of ${RECIPE_NAMES.join(', ')}`);
};

export function parseImportance(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new InvalidInputError(`--importance must be a number from 0 to 1, got "${value}"`);
  }
  return n;
}

export function positiveInt(option: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new InvalidInputError(`${option} must be a positive integer, got "${value}"`);
    return n;
  };
}

export function nonNegativeInt(option: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new InvalidInputError(`${option} must be a whole number of 0 or more, got "${value}"`);
    return n;
  };
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_LIKE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/**
 * Reads a date option: ISO ("2026-04-10", "2026-04-10T15:00", "…Z") or a phrase in English or
 * Chinese ("next friday", "tomorrow 3pm", "下周五", "明天下午三点"), relative to `now`. Async because
 * the phrase parser (chrono, all locales) takes half a second to load, so it loads only when needed.
 */
export async function readDate(option: string, value: string, now: Date = new Date(), timeZone?: string): Promise<Date> {
  const text = value.trim();
  if (ISO_DAY.test(text) || ISO_LIKE.test(text)) {
    const d = new Date(text);
    if (!Number.isNaN(d.getTime())) return d;
  } else if (text !== '') {
    const { parseDueTime } = await import('../extraction/due-time.js');
    const d = parseDueTime({ text, reference: now, ...(timeZone ? { timeZone } : {}) });
    if (d) return d;
  }
  throw new InvalidInputError(`${option}: cannot read "${value}" as a date; use YYYY-MM-DD, an ISO time, or a phrase like "next friday" / "下周五"`);
}
