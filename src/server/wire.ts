import { z } from '@hono/zod-openapi';
import { externalUserId, type AuthInfo } from './auth.js';

/** A value as it travels in JSON: dates become ISO strings. */
export type Wire<T> = T extends Date
  ? string
  : T extends ReadonlyArray<infer U>
    ? Wire<U>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

/**
 * Serialises an engine result for one caller: dates to ISO strings, every `userId` back to the
 * caller's external id (a tenant never sees the engine's scoped ids).
 */
export function present<T>(auth: AuthInfo, value: T): Wire<T> {
  const text = JSON.stringify(value, (key, v: unknown) => (key === 'userId' && typeof v === 'string' ? (externalUserId(auth, v) ?? v) : v));
  return (text === undefined ? null : JSON.parse(text)) as Wire<T>;
}

/** The response schema of a domain object: its date fields become ISO strings. */
export function wireSchema<S extends z.ZodObject>(schema: S): z.ZodType<Wire<z.output<S>>> {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) shape[key] = dateless(field);
  return z.object(shape) as unknown as z.ZodType<Wire<z.output<S>>>;
}

function dateless(field: z.ZodType): z.ZodType {
  if (field instanceof z.ZodDate) return z.string().describe('ISO 8601 date-time');
  if (field instanceof z.ZodOptional) return dateless(field.unwrap() as z.ZodType).optional();
  if (field instanceof z.ZodDefault) return dateless(field.unwrap() as z.ZodType);
  return field;
}
