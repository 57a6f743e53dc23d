import { z } from 'zod';
import { Message } from './conversation.js';
import { MemoryStatus } from './memory.js';
import { Todo } from './todo.js';

/** How long what a conversation asked to forget can be brought back before it is erased for good. */
export const FORGET_UNDO_DAYS = 7;

/**
 * What one request in conversation forgot ("忘掉我前女友的事", "forget what I told you yesterday"),
 * kept for `FORGET_UNDO_DAYS` so a misread request can be undone: its id is the asking message's.
 * The memories it deleted stay in the store (status "deleted") and are listed here with the
 * status they had; the raw messages and the todos it erased live only here until it expires,
 * is undone or is erased at once.
 */
export const ForgottenRequest = z.object({
  id: z.string().min(1),
  userId: z.string().min(1),
  at: z.date(),
  expiresAt: z.date(),
  /** What was asked, as the forget report names it ("my wife's birthday", "what they said yesterday"). */
  topic: z.string(),
  /** The asking message's words (it is among `messages` too while they are kept). */
  request: z.string(),
  memories: z.array(z.object({ id: z.string(), status: MemoryStatus })),
  /** Todos of the topic with no memory of their own, erased by it. */
  todos: z.array(Todo),
  messages: z.array(Message),
  /** The profile versions the request wrote without the topic (one a topic it named), and the older versions that still say it. */
  profileWritten: z.array(z.number().int()),
  staleProfileVersions: z.array(z.number().int()),
  /**
   * When the user undid it: what it held is back and only this mark is kept until it expires, so
   * the extractor, reading the request again among the restored turns, does not act on it again.
   */
  undoneAt: z.date().optional(),
});
export type ForgottenRequest = z.infer<typeof ForgottenRequest>;

/** A `ForgottenRequest` as JSON (dates as ISO strings) and back: both stores keep it as one document. */
export const ForgottenRequestJson = ForgottenRequest.extend({
  at: z.coerce.date(),
  expiresAt: z.coerce.date(),
  undoneAt: z.coerce.date().optional(),
  todos: z.array(Todo.extend({ dueAt: z.coerce.date().optional(), remindAt: z.coerce.date().optional(), completedAt: z.coerce.date().optional(), createdAt: z.coerce.date() })),
  messages: z.array(Message.extend({ createdAt: z.coerce.date(), expiresAt: z.coerce.date().optional() })),
});

/** A request in conversation that forgot something, as the page and the API list it. */
export const ForgottenSummary = z.object({
  /** The asking message's id: what an undo or an erase takes. */
  id: z.string(),
  at: z.date(),
  /** When what it forgot is erased for good unless undone first. */
  expiresAt: z.date(),
  topic: z.string(),
  request: z.string(),
  memories: z.number().int(),
  messages: z.number().int(),
  todos: z.number().int(),
});
export type ForgottenSummary = z.infer<typeof ForgottenSummary>;

/** What an undo brought back. */
export const UndoneForget = z.object({
  id: z.string(),
  topic: z.string(),
  memories: z.number().int(),
  messages: z.number().int(),
  todos: z.number().int(),
  /** Whether the profile went back to the version before the request rewrote it. */
  profile: z.boolean(),
});
export type UndoneForget = z.infer<typeof UndoneForget>;

/** What erasing at once took. */
export const ErasedForget = z.object({
  id: z.string(),
  /** Memories the request had deleted, now purged. */
  memories: z.number().int(),
  messages: z.number().int(),
});
export type ErasedForget = z.infer<typeof ErasedForget>;
