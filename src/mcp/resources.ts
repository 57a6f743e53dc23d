import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { SEMANTIC_KINDS } from '../domain/memory.js';
import { parseInput } from '../errors.js';
import type { MemoryEngine } from '../memory-engine.js';
import { renderMarkdown } from '../mirror/render-markdown.js';
import type { ToolContext } from './tool-kit.js';

/** The most memories memory.md shows; the file is for reading, not an export. */
const MEMORY_MD_LIMIT = 500;

async function profileText(memory: MemoryEngine, userId: string): Promise<string> {
  const profile = await memory.profile(userId);
  if (!profile) return '(no profile yet / 还没有画像)';
  const basics = Object.entries(profile.basicInfo).map(([k, v]) => `- ${k}: ${v}`);
  return [profile.narrative, ...(basics.length > 0 ? ['', ...basics] : [])].join('\n') + '\n';
}

async function memoryMd(memory: MemoryEngine, userId: string): Promise<string> {
  const memories = await memory.list({ userId, kinds: SEMANTIC_KINDS, limit: MEMORY_MD_LIMIT });
  return renderMarkdown({ file: 'memory', memories });
}

const UserVariable = z.object({ user_id: z.string().trim().min(1).max(256) });

/**
 * The profile and memory.md as resources: `engram://profile` and `engram://memory.md` for the
 * user the server is bound to, and `engram://users/{user_id}/…` for a user chosen within the
 * tenant (the same resolver as the tools' `user_id`).
 */
export function registerResources({ server, memory, resolveUser }: ToolContext): void {
  const files = [
    { name: 'profile', file: 'profile', title: 'Core profile', mimeType: 'text/markdown', read: profileText, description: "The user's core profile: who they are, in a few sentences" },
    { name: 'memory-md', file: 'memory.md', title: 'memory.md', mimeType: 'text/markdown', read: memoryMd, description: "The user's memories grouped by kind, as Engram's memory.md mirror renders them" },
  ];
  for (const f of files) {
    const text = (uri: URL, body: string): ReadResourceResult => ({ contents: [{ uri: uri.href, mimeType: f.mimeType, text: body }] });
    server.registerResource(f.name, `engram://${f.file}`, { title: f.title, description: f.description, mimeType: f.mimeType }, async (uri) =>
      text(uri, await f.read(memory, await resolveUser(undefined))),
    );
    server.registerResource(
      `${f.name}-of-user`,
      new ResourceTemplate(`engram://users/{user_id}/${f.file}`, { list: undefined }),
      { title: `${f.title} of a user`, description: f.description, mimeType: f.mimeType },
      async (uri, variables) => {
        const { user_id } = parseInput(UserVariable, { user_id: decodeURIComponent(String(variables['user_id'])) }, 'resource user');
        return text(uri, await f.read(memory, await resolveUser(user_id)));
      },
    );
  }
}
