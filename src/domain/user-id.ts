import { z } from 'zod';
import { InvalidInputError } from '../errors.js';

/** The settings row of everyone's defaults; never a user. */
export const GLOBAL_USER = '*';

/** Longest user id a caller may give, in UTF-16 code units. */
export const MAX_USER_ID_LENGTH = 256;
/**
 * Longest user id the engine takes: a caller's id with room for the server's tenant prefix
 * ("t:" + a tenant id of up to 64 + ":"), so a tenant's 256-character id is not refused once scoped.
 */
export const MAX_STORED_USER_ID_LENGTH = MAX_USER_ID_LENGTH + 67;

// Control characters (C0, DEL, C1) and lone surrogates: ids must print and round-trip through UTF-8.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a user id is refused, or undefined when it is fine. */
export function userIdProblem(value: unknown, max: number = MAX_USER_ID_LENGTH): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (value.trim().length === 0) return 'must not be empty';
  if (value.length > max) return `must be at most ${max} characters`;
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

/** Throws INVALID_INPUT unless `value` is a valid user id (of at most `max` characters: a caller's by default). */
export function assertUserId(value: unknown, where = 'userId', max: number = MAX_USER_ID_LENGTH): asserts value is string {
  const problem = userIdProblem(value, max);
  if (problem) throw new InvalidInputError(`Invalid ${where}: ${problem}`, { details: { field: where } });
}
