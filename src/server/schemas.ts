import { z } from '@hono/zod-openapi';
import { RepeatInput } from '../domain/recurrence.js';
import { Message, Session } from '../domain/conversation.js';
import { HistoryEvent } from '../domain/history.js';
import { Memory, MemoryKind, MemoryPatch, MemoryStatus, NewMemoryInput } from '../domain/memory.js';
import { Profile, Relation } from '../domain/profile.js';
import { Todo } from '../domain/todo.js';
import { ContentText, isWellFormed } from '../domain/content-text.js';
import { ErasedForget, ForgottenSummary, UndoneForget } from '../domain/forgotten.js';
import { RECIPES, type RecipeName } from '../recall/recipes.js';
import { wireSchema } from './wire.js';

/** A string with no lone surrogates (they cannot be stored or indexed faithfully). */
export const Text = z.string().refine((s) => isWellFormed(s), 'must be well-formed Unicode (no lone surrogates)');
export { isWellFormed };

/**
 * The words of a memory, a todo or a learning: the library's one definition (domain/content-text.ts),
 * which every door shares; the API states it in its schemas too, so /openapi.json shows it.
 */
export { ContentText };

export const UserId = Text.pipe(z.string().min(1).max(200)).openapi({ param: { name: 'userId', in: 'path' }, example: 'li-ming' });
export const UserParams = z.object({ userId: UserId });
export const MemoryParams = z.object({ userId: UserId, id: z.string().min(1).max(200).openapi({ param: { name: 'id', in: 'path' } }) });
export const SessionParams = z.object({ userId: UserId, sessionId: z.string().min(1).max(200).openapi({ param: { name: 'sessionId', in: 'path' } }) });
export const TodoParams = z.object({ userId: UserId, id: z.string().min(1).max(200).openapi({ param: { name: 'id', in: 'path' } }) });

export const ErrorBody = z
  .object({ error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional(), requestId: z.string().optional() }) })
  .openapi('Error');

// ---- responses: the library's own schemas with dates as ISO strings ----
export const MemoryDto = wireSchema(
  Memory.extend({
    // The description sits on the string: wireSchema rebuilds the optional around it.
    version: z.string().openapi({
      description: "The memory's version, also its ETag (on the /memories endpoints). Send it back as `If-Match: \"<version>\"` with a PATCH to change only the version you read: a memory changed since answers 412 PRECONDITION_FAILED and is left as it is.",
      example: 'k3J0aWJ2bG9nZ2VkLWluAb',
    }).optional(),
  }),
).openapi('Memory');
export const HistoryEventDto = wireSchema(HistoryEvent).openapi('HistoryEvent');
export const RelationDto = wireSchema(Relation).openapi('Relation');
export const ProfileDto = wireSchema(Profile).openapi('Profile');
export const TodoDto = wireSchema(Todo).openapi('Todo');
export const ForgottenRequestDto = wireSchema(ForgottenSummary).openapi('ForgottenInConversation');
export const UndoneForgetDto = wireSchema(UndoneForget).openapi('UndoneForget');
export const ErasedForgetDto = wireSchema(ErasedForget).openapi('ErasedForget');
export const ForgottenParams = z.object({ userId: UserId, id: z.string().min(1).max(200).openapi({ param: { name: 'id', in: 'path' } }) });
/** How a todo repeats, as a caller gives it (the zone defaults to the user's). */
export const RepeatDto = RepeatInput;
export const MessageDto = wireSchema(Message).openapi('Message');
export const SessionDto = wireSchema(Session).openapi('Session');

const ScoreParts = z.record(z.string(), z.unknown()).openapi('ScoreParts');
export const RecalledDto = z.object({ memory: MemoryDto, score: ScoreParts }).openapi('RecalledMemory');
export const MemoryPage = z.object({ items: z.array(MemoryDto), nextCursor: z.string().nullable() }).openapi('MemoryPage');

// ---- requests ----
const csv = <T extends z.ZodType<unknown, string>>(item: T) =>
  z.string().transform((s) => s.split(',').map((x) => x.trim()).filter((x) => x !== '')).pipe(z.array(item));
const bool = z.enum(['true', 'false']).transform((s) => s === 'true');

export const ListMemoriesQuery = z.object({
  /** Text query: hybrid recall over the filtered memories, best first. */
  q: Text.pipe(z.string().max(2000)).optional(),
  /** With `q`: only memories whose calibrated relevance (0–1) reaches this; the context block's own floor is 0.3. @default none: every match, best first */
  minRelevance: z.coerce.number().min(0).max(1).optional().openapi({ description: 'With q: leave out memories less relevant than this (0–1; the context block uses 0.3)', example: 0.3 }),
  kind: csv(MemoryKind).optional().openapi({ description: 'Comma-separated kinds', example: 'preference,fact' }),
  status: csv(MemoryStatus).optional().openapi({ description: 'Comma-separated statuses; default active', example: 'active,deleted' }),
  core: bool.optional(),
  from: z.iso.datetime({ offset: true }).optional().openapi({ description: 'createdAt from (inclusive)' }),
  to: z.iso.datetime({ offset: true }).optional().openapi({ description: 'createdAt to (inclusive)' }),
  sort: z.enum(['createdAt', 'updatedAt', 'importance', 'happenedAt']).default('createdAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const CreateMemoryBody = NewMemoryInput.omit({ userId: true }).strict().openapi('NewMemory');
export const PatchMemoryBody = MemoryPatch.strict().openapi('MemoryPatch');
/** PATCH's precondition: the ETag (the memory's `version`) the change was made against. */
export const IfMatchHeader = z.object({
  'if-match': z.string().max(2000).optional().openapi({
    description: 'Optimistic concurrency: the ETag of the memory as it was read, e.g. `"k3J0aWJ2bG9nZ2VkLWluAb"`. When the memory has changed since, the answer is 412 PRECONDITION_FAILED and nothing is changed (decay and reinforcement since, which move importance alone, pass unless the request sets importance). Without it, the change applies to the memory as it is now.',
    example: '"k3J0aWJ2bG9nZ2VkLWluAb"',
  }),
});

export const SearchBody = z
  .object({
    query: Text.pipe(z.string().max(20_000)),
    limit: z.number().int().min(1).max(100).default(10),
    recipe: z.enum(Object.keys(RECIPES) as [RecipeName, ...RecipeName[]]).optional(),
    kinds: z.array(MemoryKind).optional(),
  })
  .strict()
  .openapi('SearchRequest');

export const ContextBody = z
  .object({
    query: Text.pipe(z.string().max(20_000)),
    tokenBudget: z.number().int().min(0).max(32_000).default(800),
    sessionId: z.string().min(1).max(200).optional(),
    language: z.enum(['zh', 'en']).optional(),
  })
  .strict()
  .openapi('ContextRequest');

export const ContextDto = z
  .looseObject({
    text: z.string(),
    tokens: z.number(),
    budget: z.number(),
    language: z.string(),
    included: z.array(z.looseObject({ type: z.string(), id: z.string(), tokens: z.number() })),
    omitted: z.number(),
  })
  .openapi('ContextBlock');
