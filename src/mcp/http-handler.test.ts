import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryEngine } from '../memory-engine.js';
import { serveLoopback } from '../proxy/serve-loopback.js';
import { testMemory } from '../testing/test-memory.js';
import { createMcpHttpHandler } from './http-handler.js';
import { boundUser } from './mcp-server.js';

let memory: MemoryEngine;
let server: { url: string; close(): Promise<void> };

beforeEach(async () => {
  memory = testMemory();
  const handle = createMcpHttpHandler({ memory });
  // Stands in for the server's API-key check: the key names the user it is bound to.
  const keys: Record<string, string> = { 'key-li': 'li', 'key-ann': 'ann' };
  const app = new Hono().all('/mcp', (c) => {
    const user = keys[(c.req.header('authorization') ?? '').replace(/^Bearer /, '')];
    if (!user) return c.json({ error: 'unauthorized' }, 401);
    return handle(c.req.raw, boundUser(user));
  });
  server = await serveLoopback(app.fetch);
});

afterEach(async () => {
  await server.close();
  await memory.close();
});

async function clientFor(key: string): Promise<Client> {
  const client = new Client({ name: 'web-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

const textOf = (r: unknown): string => (r as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('MCP over Streamable HTTP', () => {
  it("serves each key's own user, Chinese and English, and nothing of another's", async () => {
    const li = await clientFor('key-li');
    const ann = await clientFor('key-ann');
    await li.callTool({ name: 'add_memory', arguments: { content: '用户下个月去成都' } });
    await ann.callTool({ name: 'add_memory', arguments: { content: 'Ann is learning the cello' } });
    expect(textOf(await li.callTool({ name: 'search_memory', arguments: { query: '成都' } }))).toContain('用户下个月去成都');
    expect(textOf(await ann.callTool({ name: 'search_memory', arguments: { query: 'cello' } }))).toContain('cello');
    expect(textOf(await ann.callTool({ name: 'list_memories', arguments: {} }))).not.toContain('成都');
    const crossing = await ann.callTool({ name: 'list_memories', arguments: { user_id: 'li' } });
    expect((crossing as CallToolResult).isError).toBe(true);
    await li.close();
    await ann.close();
  });

  it('refuses without a key and answers GET with 405', async () => {
    await expect(clientFor('wrong')).rejects.toThrow();
    const get = await fetch(`${server.url}/mcp`, { headers: { authorization: 'Bearer key-li', accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
  });
});
