import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Memory } from '../domain/memory.js';
import { memoryVersion } from '../domain/memory-version.js';
import { EngramError } from '../errors.js';
import type { MemoryEngine } from '../memory-engine.js';

/**
 * Maps a tool's optional `user_id` argument to the user it acts for, or throws an EngramError to
 * refuse. Over stdio it is the one `--user`; over HTTP the API key's user, or an id inside the
 * key's tenant.
 */
export type ResolveUser = (requested: string | undefined) => string | Promise<string>;

/** What every tool module receives. */
export interface ToolContext {
  server: McpServer;
  memory: MemoryEngine;
  resolveUser: ResolveUser;
}

/**
 * Who a tool's change is recorded as: the assistant, writing on its own judgement of what the user
 * meant (never the user's own words or a click), with the tool named in the history's reason.
 */
export const byAssistant = (reason: string) => ({ actor: 'assistant' as const, reason });

/** The optional `version` a tool that changes one memory takes (optimistic concurrency). */
export const versionArg = {
  version: z.string().trim().min(1).max(200).optional().describe(
    'The memory\'s `version` as you read it (from get_memory, search_memory, list_memories or add_memory): the change is made only if nobody changed the memory since, else the tool answers PRECONDITION_FAILED and changes nothing; read it again and decide. Leave it out to change the memory as it is now',
  ),
};

/** The optional argument every tool takes; most clients leave it out. */
export const userArg = {
  user_id: z.string().trim().min(1).max(256).optional().describe('Whose memories; defaults to the user this server is bound to'),
};

/**
 * A memory as tools show it: what an assistant needs, without embeddings or bookkeeping; `version`
 * is what update_memory and delete_memory take back to change only the memory as it was read.
 */
export function memoryView(m: Memory): Record<string, unknown> {
  return {
    id: m.id,
    version: memoryVersion(m),
    kind: m.kind,
    content: m.content,
    importance: Math.round(m.importance * 100) / 100,
    ...(m.core ? { core: true } : {}),
    ...(m.status !== 'active' ? { status: m.status } : {}),
    createdAt: m.createdAt.toISOString(),
    ...(m.happenedAt ? { happenedAt: m.happenedAt.toISOString() } : {}),
    ...(m.structuredData ? { structuredData: m.structuredData } : {}),
  };
}

export function ok(data: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data, null, 2) }] };
}

/**
 * Runs a tool body. An EngramError (bad input, not found, refused user) becomes a tool error the
 * model can read and correct, `[CODE] message`; anything else propagates to the SDK, which also
 * reports it as a tool error.
 */
export async function guard(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    if (!EngramError.isInstance(error)) throw error;
    return { isError: true, content: [{ type: 'text', text: `[${error.code}] ${error.message}` }] };
  }
}
