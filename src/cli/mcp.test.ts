import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliHarness } from './test-cli.js';

const bin = fileURLToPath(new URL('../../bin/engram.js', import.meta.url));
let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'engram-mcp-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const textOf = (r: CallToolResult): string => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

describe('engram mcp over real stdio', () => {
  it('serves the tools of --user to an SDK client spawned as a process, in Chinese and English', async () => {
    const db = path.join(dir, 'engram.db');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [bin, 'mcp', '--user', 'li-ming', '--db', db, '--embedder', 'hash'],
      cwd: dir,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'desktop', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools).toHaveLength(15);
      await client.callTool({ name: 'add_memory', arguments: { content: '用户喜欢猫', kind: 'preference' } });
      await client.callTool({ name: 'add_memory', arguments: { content: 'Works as a nurse in Leeds', kind: 'identity' } });
      const zh = (await client.callTool({ name: 'search_memory', arguments: { query: '猫' } })) as CallToolResult;
      expect(textOf(zh)).toContain('用户喜欢猫');
      const en = (await client.callTool({ name: 'get_context', arguments: { message: 'Where does the nurse work?' } })) as CallToolResult;
      expect(textOf(en)).toContain('Works as a nurse in Leeds');
      const other = (await client.callTool({ name: 'list_memories', arguments: { user_id: 'someone-else' } })) as CallToolResult;
      expect(other.isError).toBe(true);
    } finally {
      await client.close();
    }
    // The memories were written to the file: the ordinary CLI sees them.
    const h = cliHarness({ env: { ENGRAM_DB: db } });
    const listed = await h.cli(['--user', 'li-ming', '--json', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('用户喜欢猫');
    h.cleanup();
  }, 60_000);
});
