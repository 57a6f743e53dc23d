import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { MemoryEngine } from '../memory-engine.js';
import { registerAssistTools } from './assist-tools.js';
import { registerForgetTools } from './forget-tools.js';
import { registerMemoryTools } from './memory-tools.js';
import { registerResources } from './resources.js';
import type { ResolveUser } from './tool-kit.js';
import { InvalidInputError } from '../errors.js';

export interface CreateMcpServerOptions {
  memory: MemoryEngine;
  /** Maps a tool's optional `user_id` to the user it acts for; see `boundUser` for one fixed user. */
  resolveUser: ResolveUser;
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

/**
 * Engram as an MCP server (official SDK): fifteen tools, each a thin call into the library, and
 * the profile and memory.md as resources. Connect it to any transport (stdio, Streamable HTTP,
 * in-memory for tests).
 */
export function createMcpServer(options: CreateMcpServerOptions): McpServer {
  const server = new McpServer(
    { name: 'engram', title: 'Engram memory', version: version() },
    {
      instructions:
        "Engram is the user's long-term memory. Call get_context with the user's message before answering; " +
        'add_memory when the user states a lasting fact; update_memory when they correct one; forget_* only when they ask to be forgotten.',
    },
  );
  const ctx = { server, memory: options.memory, resolveUser: options.resolveUser };
  registerMemoryTools(ctx);
  registerForgetTools(ctx);
  registerAssistTools(ctx);
  registerResources(ctx);
  return server;
}

/** A resolver for a server bound to one user: `user_id` may be left out or name that user, nobody else. */
export function boundUser(userId: string): ResolveUser {
  return (requested) => {
    if (requested === undefined || requested === userId) return userId;
    throw new InvalidInputError(`This server serves user "${userId}" only; user_id "${requested}" is not allowed`);
  };
}
