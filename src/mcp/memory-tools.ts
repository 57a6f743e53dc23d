import { z } from 'zod';
import { MemoryKind, MODEL_FORBIDDEN_KINDS, ModelMemoryKind } from '../domain/memory.js';
import { InvalidInputError } from '../errors.js';
import { byAssistant, guard, memoryView, ok, userArg, versionArg, type ToolContext } from './tool-kit.js';

const id = z.string().trim().min(1).max(200).describe('The memory id');
// Not trimmed here: the library checks the words as sent (a leading form feed is refused, not
// trimmed away; domain/content-text.ts), then trims them.
const content = z.string().min(1).max(8000);

const isModelForbidden = (kind: unknown): boolean => (MODEL_FORBIDDEN_KINDS as readonly unknown[]).includes(kind);
const WHY_FORBIDDEN = "an episode is Engram's own summary of what was said and a system memory instructs the assistant (the user adds and edits those in Engram)";

/**
 * The kinds a tool call may write: a model that could write an episode would plant a "recent
 * exchange" the user never had (the context block shows episodes as such), as extraction may not.
 */
const kind = z.enum(ModelMemoryKind.options, { error: (issue) => (isModelForbidden(issue.input) ? `kind "${String(issue.input)}" is not a model's to write: ${WHY_FORBIDDEN}; use one of ${ModelMemoryKind.options.join(', ')}` : undefined) });

const versionOf = (version: string | undefined) => (version === undefined ? undefined : { ifVersion: version });

/** add / search / list / get / update / delete: thin calls into the library, one user each. */
export function registerMemoryTools({ server, memory, resolveUser }: ToolContext): void {
  server.registerTool(
    'add_memory',
    {
      title: 'Remember a fact',
      description: 'Stores one durable fact about the user, in the language the user spoke (e.g. "用户对花生过敏", "Prefers window seats").',
      inputSchema: {
        ...userArg,
        content: content.describe('The fact, one sentence'),
        kind: kind.optional().describe(`${ModelMemoryKind.options.join(', ')} (default fact)`),
        importance: z.number().min(0).max(1).optional().describe('0..1, default 0.5'),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const userId = await resolveUser(args.user_id);
        // The model's words about the user, not the user's: source and actor say so (not verified).
        const m = await memory.add({ userId, content: args.content, kind: args.kind, importance: args.importance, source: 'assistant' }, byAssistant('added through MCP add_memory'));
        return ok({ added: memoryView(m) });
      }),
  );

  server.registerTool(
    'search_memory',
    {
      title: 'Search memories',
      description: "Finds the user's memories relevant to a query (hybrid keyword + vector), best first, with scores.",
      inputSchema: {
        ...userArg,
        query: z.string().trim().min(1).max(2000).describe('What to look for, in any language'),
        limit: z.number().int().min(1).max(50).optional().describe('default 10'),
        kinds: z.array(MemoryKind).optional(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const userId = await resolveUser(args.user_id);
        const found = await memory.recall({ userId, query: args.query, limit: args.limit ?? 10, kinds: args.kinds });
        return ok({ results: found.map((r) => ({ ...memoryView(r.memory), score: Math.round(r.score.final * 1000) / 1000 })) });
      }),
  );

  server.registerTool(
    'list_memories',
    {
      title: 'List memories',
      description: "Lists the user's active memories, newest first.",
      inputSchema: {
        ...userArg,
        kinds: z.array(MemoryKind).optional(),
        limit: z.number().int().min(1).max(200).optional().describe('default 50'),
        offset: z.number().int().min(0).optional(),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const userId = await resolveUser(args.user_id);
        const list = await memory.list({ userId, kinds: args.kinds, limit: args.limit ?? 50, offset: args.offset });
        return ok({ memories: list.map(memoryView) });
      }),
  );

  server.registerTool(
    'get_memory',
    {
      title: 'Get a memory',
      description: 'One memory by id.',
      inputSchema: { ...userArg, id },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => guard(async () => ok({ memory: memoryView(await memory.get(await resolveUser(args.user_id), args.id)) })),
  );

  server.registerTool(
    'update_memory',
    {
      title: 'Correct a memory',
      description: 'Changes a memory when the user corrects it; the old version stays in its history.',
      inputSchema: {
        ...userArg,
        id,
        content: content.optional().describe('The corrected fact'),
        kind: kind.optional(),
        importance: z.number().min(0).max(1).optional(),
        ...versionArg,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const userId = await resolveUser(args.user_id);
        // Rewriting an existing episode would plant the same fake exchange as adding one.
        const current = await memory.get(userId, args.id);
        if (isModelForbidden(current.kind)) throw new InvalidInputError(`memory ${args.id} is of kind "${current.kind}", not a model's to rewrite: ${WHY_FORBIDDEN}`);
        const patch = { ...(args.content ? { content: args.content } : {}), ...(args.kind ? { kind: args.kind } : {}), ...(args.importance !== undefined ? { importance: args.importance } : {}) };
        const m = await memory.update(userId, args.id, patch, byAssistant('corrected through MCP update_memory'), versionOf(args.version));
        return ok({ updated: memoryView(m) });
      }),
  );

  server.registerTool(
    'delete_memory',
    {
      title: 'Delete a memory',
      description: 'Deletes one memory (restorable by the user in Engram; use forget_topic to erase for good).',
      inputSchema: { ...userArg, id, ...versionArg },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      guard(async () => {
        const m = await memory.delete(await resolveUser(args.user_id), args.id, byAssistant('deleted through MCP delete_memory'), versionOf(args.version));
        return ok({ deleted: m.id });
      }),
  );
}
