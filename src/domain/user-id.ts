import { z } from 'zod';
import { InvalidInputError } from '../errors.js';

/** The settings row of everyone's defaults; never a user. */
export const GLOBAL_USER = '*';

/** Longest user id accepted, in UTF-16 code units. */
export const MAX_USER_ID_LENGTH = 256;

// Control characters (C0, DEL, C1) and lone surrogates: ids must print and round-trip through UTF-8.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a user id is refused, or undefined when it is fine. */
export function userIdProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (value.trim().length === 0) return 'must not be empty';
  if (value.length > MAX_USER_ID_LENGTH) return `must be at most ${MAX_USER_ID_LENGTH} characters`;
  if (value === GLOBAL_USER) return `"${GLOBAL_USER}" is reserved for the global settings`;
  if (LONE_SURROGATE.test(value)) return 'must be valid Unicode (no lone surrogates)';
  if (CONTROL.test(value)) return 'must not contain control characters';
  return undefined;
}

/** A user id as every public method accepts it (see userIdProblem). */
export const UserId = z.string().superRefine((value, ctx) => {
  const problem = userIdProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: `userId ${problem}` });
});

/** Throws INVALID_INPUT unless `value` is a valid user id. */
export function assertUserId(value: unknown, where = 'userId'): asserts value is string {
  const problem = userIdProblem(value);
  if (problem) throw new InvalidInputError(`Invalid ${where}: ${problem}`, { details: { field: where } });
}
